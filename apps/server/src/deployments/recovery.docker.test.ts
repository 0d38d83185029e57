import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PLATFORM_RESTARTED_MESSAGE, type WorkspaceRevisions } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments } from '../infra/db/schema.js';
import { LABELS } from '../infra/docker/conventions.js';
import { listCandidateContainers } from '../infra/docker/projectResources.js';
import {
  cleanUpWorkspaces,
  containersOf,
  deployAndWait,
  docker,
  loopback,
  NEVER_LISTENS,
  SERVE_PAGE,
  shopVersion,
  startDeployment,
  waitForDeployment,
} from '../test/deployments.js';
import { bustBuildCache, createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { createHostileWorld, type HostileWorld } from '../test/fixtures/hostileRepos.js';
import { describeWith, requireService } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

const WORKER = fileURLToPath(new URL('../test/fixtures/workerProcess.ts', import.meta.url));

/** Polls `read` until `done` holds, or throws `what` after `timeoutMs`: a wait on a condition. */
async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/**
 * A separate worker process on the test's database and queue (`node --import tsx` rather than the tsx
 * wrapper, so SIGKILL hits the process that runs the job).
 */
/**
 * Heartbeats every 2 s (not 5): a dead worker's deployment is stale after 10 s instead of 25, so the waits after
 * each kill are shorter. The promise under test, "failed within 60 s of the restart", is the same.
 */
const HEARTBEAT = { DEPLOY_HEARTBEAT_SECONDS: '2' };

function spawnWorker(ctx: TestContext, reposRoot: string, env: Record<string, string> = {}) {
  return spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      DATA_DIR: ctx.dataDir,
      DATABASE_URL: ctx.platform.config.databaseUrl!,
      ...(ctx.platform.config.redisUrl ? { REDIS_URL: ctx.platform.config.redisUrl } : {}),
      LOCAL_REPOS_DIR: reposRoot,
      LOG_LEVEL: 'silent',
      ...HEARTBEAT,
      ...env,
    },
    stdio: 'ignore',
  });
}

// Needs PostgreSQL: the killed worker and the restarted platform share one database, as in production.
// Run on both queues: the in-process queue (jobs in the database) and BullMQ on Redis, whose stalled-job
// handling must not run the killed deployment a second time.
describeWith('postgres')('a worker killed mid-build', () => {
  const queues = requireService('redis') ? (['in-process', 'bullmq'] as const) : (['in-process'] as const);
  describe.each(queues)('on the %s queue', (queue) => {
    let repos: ReturnType<typeof createFixtureRepos>;
    let ctx: TestContext;
    let worker: ChildProcess | undefined;

    beforeAll(async () => {
      repos = createFixtureRepos('operator');
      bustBuildCache(repos.root, 'slow-build');
      ctx = await createTestContext({
        database: 'postgres',
        redis: queue === 'bullmq',
        env: { LOCAL_REPOS_DIR: repos.root, ...HEARTBEAT },
      });
    });

    afterAll(async () => {
      if (worker?.exitCode === null) worker.kill('SIGKILL');
      if (ctx) await cleanUpWorkspaces(ctx);
      await ctx?.close();
      repos?.cleanup();
    });

    it('ends the deployment with a reason within 60 s of the restart and leaves no containers', async () => {
      const client = await new TestClient(ctx.app).signIn('operator');
      const { sessionId, deploymentId } = await startDeployment(client, { repo: 'slow-build' });

      // A separate worker process takes the job (this platform's queue is not started yet) ...
      worker = spawnWorker(ctx, repos.root);
      // ... and is killed once the slow build is under way.
      await waitUntil(
        async () =>
          (await ctx.platform.db.select().from(deployments).where(eq(deployments.id, deploymentId)))[0],
        (row) => row?.steps.find((s) => s.name === 'deploy-application')?.status === 'in_progress',
        // Set-up, not the promise under test: a loaded CI machine may start the worker slowly.
        180_000,
        'the worker never reached the build',
      );
      // The build's slow step is running: the classic builder runs it in a container of its own.
      await waitUntil(
        async () => (await docker.listContainers()).map((container) => container.Command),
        (commands) => commands.some((command) => command.includes('slow build started')),
        // Set-up, not the promise under test: a loaded CI machine may start the worker slowly.
        180_000,
        'the slow build step never started',
      );
      worker.kill('SIGKILL');
      const killedAt = Date.now();

      // The platform starts again.
      await ctx.platform.workers.start();
      const { status } = await waitForDeployment(client, { sessionId, deploymentId }, 60_000);
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      expect(status).toMatchObject({ state: 'failed', error: PLATFORM_RESTARTED_MESSAGE });
      const job = (await client.get(`/api/deployment/job/${deploymentId}`)).json();
      expect(job.failure_reason).toBe(PLATFORM_RESTARTED_MESSAGE);
      // The deployment is marked failed first; the workspace follows once its containers are removed.
      const [workspace] = await waitUntil(
        () => ctx.platform.db.query.workspaces.findMany(),
        (rows) => rows[0]?.status === 'failed',
        60_000,
        'the workspace was not marked failed',
      );
      expect(await containersOf(workspace!.id)).toHaveLength(0);
      // The build log up to the crash is still there, with the reason at the end.
      // (The stream of a finished deployment sends what is stored and ends; the reason is written last.)
      const log = await waitUntil(
        async () =>
          (await client.get('/api/logs/operator/slow-build/stream?log_type=build&initial_lines=500')).body,
        (body) => body.includes(`Deployment failed: ${PLATFORM_RESTARTED_MESSAGE}`),
        30_000,
        'the build log never got the reason',
      );
      expect(log).toContain('==> deploy-application');
      // A new deployment of the workspace can start (and is waited for, so it leaves nothing behind); its
      // build step is quick, since it is not the point here.
      bustBuildCache(repos.root, 'slow-build', { buildSeconds: 0 });
      const again = await deployAndWait(client, { repo: 'slow-build' });
      expect(again.status.state).toBe('completed');
      // Exactly one deployment ran after the restart: the killed one was not run again by the queue.
      const rows = await ctx.platform.db.select().from(deployments);
      expect(rows.map((row) => row.status).sort()).toEqual(['completed', 'failed']);
    }, 420_000);
  });
});

// Issue 15: killing Slipway in the middle of a redeploy leaves the previous version serving after restart.
describeWith('postgres')('a worker killed while a redeploy verifies its new containers', () => {
  let world: HostileWorld;
  let ctx: TestContext;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    world = createHostileWorld();
    ctx = await createTestContext({
      database: 'postgres',
      env: { LOCAL_REPOS_DIR: world.root, ...HEARTBEAT },
    });
  });

  afterAll(async () => {
    if (worker?.exitCode === null) worker.kill('SIGKILL');
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    world?.cleanup();
  });

  it('starts the last good version again after the restart, as a rollback', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    // A worker process runs the first deployment (an in-process queue takes the jobs waiting when it starts).
    world.repo('shop', shopVersion('version one', SERVE_PAGE));
    const firstStart = await startDeployment(client, { repo: 'shop' });
    worker = spawnWorker(ctx, world.root);
    const first = await waitForDeployment(client, firstStart);
    expect(first.status.error).toBeNull();
    worker.kill('SIGKILL');
    const url = loopback(first.status.data.deploymentData.metadata.urls.web!);
    expect(await (await fetch(url)).text()).toBe('version one\n');

    const [workspace] = await ctx.platform.db.query.workspaces.findMany();
    const webOf = async () =>
      (await containersOf(workspace!.id)).find((c) => c.Labels[LABELS.composeService] === 'web');
    const webOfVersionOne = (await webOf())!;
    const candidatesOf = () => listCandidateContainers(docker, workspace!.id);
    const rowOf = async (id: string) =>
      (await ctx.platform.db.select().from(deployments).where(eq(deployments.id, id)))[0];
    const verifying = (row: Awaited<ReturnType<typeof rowOf>>) => {
      if (row && !['queued', 'running'].includes(row.status)) throw new Error(`ended: ${row.error}`);
      return row?.steps.find((s) => s.name === 'verify-deployment')?.status === 'in_progress';
    };

    // Killed while its web service, which never answers, is verified beside the serving one: version one was
    // never touched, so after the restart the deployment fails, its candidate goes, and nothing rolls back.
    world.repo('shop', shopVersion('version two', NEVER_LISTENS));
    const beside = await startDeployment(client, { repo: 'shop', workflowType: 'redeploy' });
    worker = spawnWorker(ctx, world.root, { DEPLOY_HEALTH_TIMEOUT_SECONDS: '600' });
    await waitUntil(
      async () => ({ row: await rowOf(beside.deploymentId), candidates: await candidatesOf() }),
      ({ row, candidates }) => verifying(row) && candidates.length > 0,
      180_000,
      'the redeploy never verified its candidate',
    );
    worker.kill('SIGKILL');
    worker = spawnWorker(ctx, world.root);
    const { status: abandoned } = await waitForDeployment(client, beside, 60_000);
    expect(abandoned).toMatchObject({ state: 'failed', error: PLATFORM_RESTARTED_MESSAGE });
    await waitUntil(candidatesOf, (left) => left.length === 0, 30_000, 'the candidate was left behind');
    expect(await (await fetch(url)).text()).toBe('version one\n');
    expect((await webOf())?.Id).toBe(webOfVersionOne.Id);
    worker.kill('SIGKILL');

    // The next version's web answers, so it replaces version one's; its store never turns healthy, so the
    // redeploy is still verifying the workspace's project when its worker is killed.
    const files = shopVersion('version three', SERVE_PAGE);
    world.repo('shop', {
      ...files,
      'compose.yaml': files['compose.yaml'].replace(
        '    volumes: ["data:/data"]\n',
        '    volumes: ["data:/data"]\n    healthcheck: {test: ["CMD", "false"], interval: 1s, start_period: 600s}\n',
      ),
    });
    const { sessionId, deploymentId } = await startDeployment(client, {
      repo: 'shop',
      workflowType: 'redeploy',
    });
    worker = spawnWorker(ctx, world.root, { DEPLOY_HEALTH_TIMEOUT_SECONDS: '600' });
    await waitUntil(
      async () => ({ row: await rowOf(deploymentId), web: await webOf() }),
      ({ row, web }) => verifying(row) && web?.Image === `slipway-${workspace!.id}-web:${deploymentId}`,
      180_000,
      'the redeploy never verified its new containers',
    );
    worker.kill('SIGKILL');

    await ctx.platform.workers.start();
    const { status: interrupted } = await waitForDeployment(client, { sessionId, deploymentId }, 60_000);
    expect(interrupted).toMatchObject({ state: 'failed', error: PLATFORM_RESTARTED_MESSAGE });
    // A rollback to version one follows by itself and reaches Live.
    const restore = await waitUntil(
      async () =>
        (await ctx.platform.db.select().from(deployments)).find((row) => row.workflowType === 'rollback'),
      (row) => row?.status === 'completed' || row?.status === 'failed',
      180_000,
      'no rollback to the last good version completed',
    );
    // Its error first: a failed rollback says why.
    expect(restore?.error).toBeNull();
    expect(restore).toMatchObject({ status: 'completed', metadata: { rollback_of: first.deploymentId } });
    expect(await (await fetch(url)).text()).toBe('version one\n');
    expect((await webOf())!.Image).toBe(`slipway-${workspace!.id}-web:${first.deploymentId}`);
    expect(await candidatesOf()).toEqual([]);
    // One rollback: the redeploy killed beside the serving version had nothing to undo.
    const rollbacks = (await ctx.platform.db.select().from(deployments)).filter(
      (row) => row.workflowType === 'rollback',
    );
    expect(rollbacks).toHaveLength(1);
    const revisions = (await client.get('/api/workspace-revisions/shop')).json() as WorkspaceRevisions;
    expect(revisions.revisions[0]).toMatchObject({ trigger: 'rollback', rollback_of: first.deploymentId });
  }, 600_000);
});
