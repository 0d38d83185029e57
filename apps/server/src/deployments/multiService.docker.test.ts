import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeployJobMetadata } from '@slipway/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import {
  cleanUpWorkspaces,
  containersOf,
  deployAndWait,
  docker,
  loopback,
  TCP_STAND_INS,
} from '../test/deployments.js';
import { git } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

const yamlString = (text: string) => JSON.stringify(text);
/** A deployment of seven services on a busy two-core machine. */
const DEPLOY_TEST_MS = 180_000;

/**
 * A realistic stack: a one-shot migration the web waits for, a database and a cache that speak TCP but not
 * HTTP, a seeder with `restart: "no"`, a service reached only by its neighbours (`expose:`), and one that
 * declares a Compose healthcheck.
 */
const stack = (migration: string) => `services:
  migrate:
    image: busybox:1.36
    command: ["sh", "-c", ${yamlString(migration)}]
    volumes:
      - shared:/shared
  web:
    image: busybox:1.36
    command: ["sh", "-c", "mkdir -p /www && cp /shared/migrated /www/index.html && exec httpd -f -p 8080 -h /www"]
    ports:
      - "8080"
    volumes:
      - shared:/shared
    depends_on:
      migrate:
        condition: service_completed_successfully
  db:
    image: busybox:1.36
    command: ["sh", "-c", ${yamlString(TCP_STAND_INS.db)}]
    ports:
      - "5432"
  cache:
    image: busybox:1.36
    command: ["sh", "-c", ${yamlString(TCP_STAND_INS.cache)}]
    ports:
      - "6379"
  seed:
    image: busybox:1.36
    command: ["sh", "-c", "echo seeded"]
    restart: "no"
  internal:
    image: busybox:1.36
    command: ["sh", "-c", "mkdir -p /www && echo internal > /www/index.html && exec httpd -f -p 9000 -h /www"]
    expose:
      - "9000"
  checker:
    image: busybox:1.36
    command: ["sh", "-c", "mkdir -p /tmp && touch /tmp/ready && exec sleep 3600"]
    healthcheck:
      test: ["CMD", "test", "-f", "/tmp/ready"]
      interval: 1s
      retries: 30
volumes:
  shared:
`;

const REPOS: Record<string, string> = {
  stack: stack('echo migrating; echo migrated > /shared/migrated'),
  'failing-migration': stack(
    "echo 'applying 0001_init'; echo 'ERROR: relation \"users\" does not exist' >&2; echo 'rolling back'; exit 4",
  ),
  // Grows without bound: `tail` keeps the whole newline-free input in memory. Three idle neighbours share
  // the VM's memory, so the hog reaches its limit (256 MB) in a few seconds.
  'memory-hog': `services:
  web:
    image: busybox:1.36
    command: ["tail", "/dev/zero"]
    ports:
      - "8080"
  worker-a:
    image: busybox:1.36
    command: ["sleep", "3600"]
  worker-b:
    image: busybox:1.36
    command: ["sleep", "3600"]
  worker-c:
    image: busybox:1.36
    command: ["sleep", "3600"]
`,
};

function createRepos(owner: string) {
  const root = mkdtempSync(path.join(tmpdir(), 'slipway-multi-'));
  for (const [name, compose] of Object.entries(REPOS)) {
    const dir = path.join(root, owner, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'docker-compose.yml'), compose);
    git(dir, ['init', '-q', '-b', 'main']);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', `app ${name}`]);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Waits for a URL to answer, as a user reloading the page would. */
async function answers(url: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return await response.text();
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeWith('docker')('real multi-service apps', () => {
  let repos: ReturnType<typeof createRepos>;
  let ctx: TestContext;
  let client: TestClient;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    repos = createRepos('operator');
    ctx = await createTestContext({
      env: { LOCAL_REPOS_DIR: repos.root, DEPLOY_HEALTH_TIMEOUT_SECONDS: '30' },
    });
    await ctx.platform.runs.startWorkers();
    client = await new TestClient(ctx.app).signIn('operator');
  });

  afterAll(async () => {
    console.info('time to reach the end of the deployment (ms):', timings);
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    repos?.cleanup();
  });

  const job = async (id: string) =>
    (await client.get(`/api/deployment/job/${id}`)).json() as DeployJobMetadata;
  const workspaceId = async (name: string) =>
    (await ctx.platform.db.query.workspaces.findMany()).find((w) => w.name === name)!.id;

  async function deploy(repo: string) {
    const started = Date.now();
    const result = await deployAndWait(client, { repo });
    timings[repo] = Date.now() - started;
    return result;
  }

  it(
    'runs web + TCP database + TCP cache + migration + seeder + internal + healthcheck to Live',
    async () => {
      const { status, deploymentId } = await deploy('stack');
      expect(status.error).toBeNull();
      expect(status.state).toBe('completed');

      // Only services with `ports:` are public; `expose:` and port-less services have no URL.
      const urls = status.data.deploymentData.metadata.urls;
      expect(Object.keys(urls).sort()).toEqual(['cache', 'db', 'web']);
      // The web started after the migration completed: it serves the file the migration wrote.
      expect((await answers(loopback(urls.web!))).trim()).toBe('migrated');

      const states = Object.fromEntries((await job(deploymentId)).service_states.map((s) => [s.service, s]));
      expect(states.migrate).toMatchObject({ state: 'completed', exit_code: 0, url: null });
      expect(states.seed).toMatchObject({ state: 'completed', exit_code: 0 });
      expect(states.web).toMatchObject({ state: 'healthy', url: urls.web });
      expect(states.db).toMatchObject({ state: 'healthy' });
      expect(states.cache).toMatchObject({ state: 'healthy' });
      expect(states.checker).toMatchObject({ state: 'healthy' });
      expect(states.internal).toMatchObject({ state: 'running', url: null });

      const containers = await containersOf(await workspaceId('stack'));
      const byService = new Map(containers.map((c) => [c.Labels[LABELS.composeService], c]));
      // No host port for what is not published; a fixed one on loopback for what is.
      expect(byService.get('internal')!.Ports.filter((p) => p.PublicPort)).toEqual([]);
      const migrate = await docker.getContainer(byService.get('migrate')!.Id).inspect();
      expect(migrate.HostConfig.RestartPolicy?.Name).toBe('no');
      const seed = await docker.getContainer(byService.get('seed')!.Id).inspect();
      expect(seed.HostConfig.RestartPolicy?.Name).toBe('no');
      const web = await docker.getContainer(byService.get('web')!.Id).inspect();
      expect(web.HostConfig.RestartPolicy?.Name).toBe('unless-stopped');
      expect(web.HostConfig.PortBindings?.['8080/tcp']?.[0]).toMatchObject({ HostIp: '127.0.0.1' });
      expect(Number(web.HostConfig.PortBindings?.['8080/tcp']?.[0]?.HostPort)).toBeGreaterThan(0);
    },
    DEPLOY_TEST_MS,
  );

  it(
    'brings a crashed web container back on the same URL',
    async () => {
      const id = await workspaceId('stack');
      const url = (await ctx.platform.db.query.workspaces.findMany()).find((w) => w.name === 'stack')!
        .serviceUrls.web!;
      const web = (await containersOf(id)).find((c) => c.Labels[LABELS.composeService] === 'web')!;
      const before = await docker.getContainer(web.Id).inspect();
      // The app dies (not `docker stop`/`kill`, which Docker treats as wanted): the restart policy applies.
      // The container ends with its processes, and may take the `docker exec` session with it before it
      // reports back (a non-zero exit then): the restart below is what proves the crash happened.
      try {
        execFileSync('docker', ['exec', web.Id, 'kill', '-9', '-1'], { stdio: 'pipe' });
      } catch (error) {
        if ((error as { status?: number | null }).status === null) throw error;
      }
      const deadline = Date.now() + 30_000;
      let after = await docker.getContainer(web.Id).inspect();
      while (after.RestartCount === before.RestartCount && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        after = await docker.getContainer(web.Id).inspect();
      }
      expect(after.RestartCount).toBeGreaterThan(before.RestartCount);
      expect((await answers(loopback(url))).trim()).toBe('migrated');
    },
    DEPLOY_TEST_MS,
  );

  it(
    'keeps every host port when the app is redeployed',
    async () => {
      const id = await workspaceId('stack');
      const portsOf = async () =>
        Object.fromEntries(
          (await containersOf(id))
            .filter((c) => c.State === 'running')
            .map((c) => [c.Labels[LABELS.composeService], c.Ports.find((p) => p.PublicPort)?.PublicPort]),
        );
      const before = await portsOf();
      const { status } = await deployAndWait(client, { repo: 'stack', workflowType: 'redeploy' });
      expect(status.error).toBeNull();
      expect(await portsOf()).toEqual(before);
    },
    DEPLOY_TEST_MS,
  );

  it(
    'fails on a failed migration with its first error, last lines and exit code',
    async () => {
      const { status, deploymentId } = await deploy('failing-migration');
      expect(status.state).toBe('failed');
      expect(status.error).toContain("Service 'migrate' exited with code 4");
      const details = await job(deploymentId);
      expect(details.health_check_failed).toBe(true);
      expect(details.failed_services).toEqual(['migrate']);
      expect(details.container_logs.migrate).toContain('ERROR: relation "users" does not exist');
      expect(details.container_logs.migrate).toContain('rolling back');
      expect(details.service_states.find((s) => s.service === 'migrate')).toMatchObject({
        state: 'exited',
        exit_code: 4,
      });
      // The web never started: it waits for the migration.
      expect(details.service_states.find((s) => s.service === 'web')?.state).toBe('starting');
      const log = await client.get(
        '/api/logs/operator/failing-migration/stream?log_type=build&initial_lines=1000&follow=true',
      );
      expect(log.body).toContain('--- Log of service migrate ---');
      expect(log.body).toContain('applying 0001_init');
    },
    DEPLOY_TEST_MS,
  );

  it(
    'reports a service the kernel killed for memory as killed for memory',
    async () => {
      const { status, deploymentId } = await deploy('memory-hog');
      expect(status.state).toBe('failed');
      expect(status.error).toContain(
        "Service 'web' was killed for memory: it used more than its limit of 256 MB",
      );
      const details = await job(deploymentId);
      expect(details.service_states.find((s) => s.service === 'web')).toMatchObject({ state: 'oom_killed' });
    },
    DEPLOY_TEST_MS,
  );
});
