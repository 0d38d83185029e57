import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { PLATFORM_RESTARTED_MESSAGE } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments } from '../infra/db/schema.js';
import { bustBuildCache, createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith, requireService } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { startDeploymentWorker } from './deploymentWorker.js';
import { cleanUpWorkspaces, containersOf, deployAndWait, docker } from './testSupport.js';

const WORKER = fileURLToPath(new URL('../test/fixtures/deploymentWorkerProcess.ts', import.meta.url));

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
        env: { LOCAL_REPOS_DIR: repos.root },
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
      const sessionId = randomUUID();
      const started = await client.post('/api/workflow/deployment/start', {
        sessionId,
        owner: 'operator',
        repo: 'slow-build',
        branch: 'main',
        vmSize: 'Standard_B2ats_v2',
      });
      expect(started.statusCode).toBe(200);
      const { deploymentId } = started.json() as { deploymentId: string };

      // A separate worker process takes the job (this platform's queue is not started yet) ...
      // `node --import tsx` rather than the tsx wrapper, so SIGKILL hits the process that runs the job.
      worker = spawn(process.execPath, ['--import', 'tsx', WORKER], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: 'test',
          DATA_DIR: ctx.dataDir,
          DATABASE_URL: ctx.platform.config.databaseUrl!,
          ...(ctx.platform.config.redisUrl ? { REDIS_URL: ctx.platform.config.redisUrl } : {}),
          LOCAL_REPOS_DIR: repos.root,
          LOG_LEVEL: 'silent',
        },
        stdio: 'ignore',
      });
      // ... and is killed while the slow build runs.
      // It is killed once the slow build is under way.
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
      await startDeploymentWorker(ctx.platform);
      const status = await waitUntil(
        async () =>
          (await client.get(`/api/workflow/deployment/status/${sessionId}`)).json() as {
            state: string;
            error: string | null;
          },
        (value) => value.state !== 'started',
        60_000,
        'the deployment was not ended within 60 s of the restart',
      );
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
      // A new deployment of the workspace can start (and is waited for, so it leaves nothing behind).
      const again = await deployAndWait(client, { repo: 'slow-build' });
      expect(again.status.state).toBe('completed');
      // Exactly one deployment ran after the restart: the killed one was not run again by the queue.
      const rows = await ctx.platform.db.select().from(deployments);
      expect(rows.map((row) => row.status).sort()).toEqual(['completed', 'failed']);
    }, 420_000);
  });
});
