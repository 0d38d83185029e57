import { statfsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanUpWorkspaces, containersOf, deployAndWait, docker, loopback } from '../test/deployments.js';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

/** Issue 15's disk guard on the real engine: a build that would not fit is refused before it starts. */
describeWith('docker')('disk guard', () => {
  let repos: ReturnType<typeof createFixtureRepos>;
  let ctx: TestContext;
  let client: TestClient;

  beforeAll(async () => {
    repos = createFixtureRepos('operator');
    ctx = await createTestContext({ env: { LOCAL_REPOS_DIR: repos.root, DEPLOY_MIN_FREE_DISK_MB: '1' } });
    await ctx.platform.runs.startWorkers();
    client = await new TestClient(ctx.app).signIn('operator');
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    repos?.cleanup();
  });

  it('refuses a redeploy the disk cannot hold, with a plain message, and the running version keeps serving', async () => {
    const first = await deployAndWait(client, { repo: 'single-dockerfile' });
    expect(first.status.error).toBeNull();
    const url = loopback(first.status.data.deploymentData.metadata.urls.app!);
    const workspace = (await ctx.platform.db.query.workspaces.findMany())[0]!;
    const before = (await containersOf(workspace.id)).map((c) => c.Id);

    // More than this machine's whole disk: pruning cannot free enough.
    const { blocks, bsize } = statfsSync(ctx.dataDir);
    const wanted = Math.ceil((Number(blocks) * Number(bsize)) / 1024 / 1024) + 1024;
    ctx.platform.config.deployments.minFreeDiskBytes = wanted * 1024 * 1024;
    const refused = await deployAndWait(client, { repo: 'single-dockerfile', workflowType: 'redeploy' });
    expect(refused.status.state).toBe('failed');
    expect(refused.status.error).toMatch(
      /^Not enough free disk on the VM to build: [\d,]+ MB free, [\d,]+ MB needed\. Older images and unused build cache were removed already; free some space on the VM or choose a larger VM size\.$/,
    );
    expect(refused.status.steps.find((s) => s.name === 'deploy-application')?.status).toBe('failed');
    // Nothing was built for it, and the running version was not touched.
    const names = (await docker.listImages()).flatMap((image) => image.RepoTags ?? []);
    expect(names.filter((name) => name.endsWith(`:${refused.deploymentId}`))).toEqual([]);
    expect((await containersOf(workspace.id)).map((c) => c.Id)).toEqual(before);
    expect(await (await fetch(url)).text()).toContain('single dockerfile app');
    const log = await client.get(
      '/api/logs/operator/single-dockerfile/stream?log_type=build&initial_lines=500&follow=true',
    );
    expect(log.body).toContain('Free disk on the VM is low');
  });
});
