import { afterAll, beforeAll, expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import { createHostileWorld, type HostileWorld } from '../test/fixtures/hostileRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { cleanUpWorkspaces, containersOf, deployAndWait, loopback } from './testSupport.js';

const version = (page: string, webCommand: string) => ({
  'compose.yaml': `services:
  web:
    build: ./web
    command: ["sh", "-c", ${JSON.stringify(webCommand)}]
    ports: ["8080"]
  cache:
    image: busybox:1.36
    command: ["sh", "-c", "while true; do sleep 1; done"]
    expose: ["6379"]
`,
  'web/Dockerfile': `FROM busybox:1.36\nRUN mkdir -p /www && echo '${page}' > /www/index.html\n`,
});
const SERVE = 'exec httpd -f -p 8080 -h /www';

/** Issue 15: a redeploy that fails after replacing the containers puts the last good version back. */
describeWith('docker')('a failed redeploy', () => {
  let world: HostileWorld;
  let ctx: TestContext;
  let client: TestClient;

  beforeAll(async () => {
    world = createHostileWorld();
    ctx = await createTestContext({
      env: { LOCAL_REPOS_DIR: world.root, DEPLOY_HEALTH_TIMEOUT_SECONDS: '10' },
    });
    await ctx.platform.queue.start(ctx.platform.deployments.jobHandlers);
    client = await new TestClient(ctx.app).signIn('operator');
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    world?.cleanup();
  });

  it('ends failed with its reasons and the previous version serving again, from its kept image', async () => {
    world.repo('shop', version('version one', SERVE));
    const first = await deployAndWait(client, { repo: 'shop' });
    expect(first.status.error).toBeNull();
    const url = loopback(first.status.data.deploymentData.metadata.urls.web!);
    expect(await (await fetch(url)).text()).toBe('version one\n');

    // The next commit builds a new page but its web service never listens.
    world.repo('shop', version('version two', 'echo starting; exec sleep 3600'));
    const broken = await deployAndWait(client, { repo: 'shop', workflowType: 'redeploy' });
    expect(broken.status.state).toBe('failed');
    expect(broken.status.error).toMatch(/web/);
    expect(broken.status.steps.find((s) => s.name === 'verify-deployment')?.status).toBe('failed');

    expect(await (await fetch(url)).text()).toBe('version one\n');
    const workspace = (await ctx.platform.db.query.workspaces.findMany())[0]!;
    expect(workspace.status).toBe('live');
    const web = (await containersOf(workspace.id)).find((c) => c.Labels[LABELS.composeService] === 'web')!;
    expect(web.Labels[LABELS.deploymentId]).toBe(first.deploymentId);
    const log = await client.get(
      '/api/logs/operator/shop/stream?log_type=build&initial_lines=500&follow=true',
    );
    expect(log.body).toContain('Starting the previous version again');
    expect(log.body).toContain('The previous version is running again');
  });
});
