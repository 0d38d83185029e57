import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { PLATFORM_RESTARTED_MESSAGE } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deployments } from '../infra/db/schema.js';
import { bustBuildCache, createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { startDeploymentWorker } from './deploymentWorker.js';
import { cleanUpWorkspaces, containersOf, deployAndWait } from './testSupport.js';

const WORKER = fileURLToPath(new URL('../test/fixtures/deploymentWorkerProcess.ts', import.meta.url));

// Needs PostgreSQL: the killed worker and the restarted platform share one database, as in production.
describeWith('postgres')('a worker killed mid-build', () => {
  let repos: ReturnType<typeof createFixtureRepos>;
  let ctx: TestContext;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    repos = createFixtureRepos('operator');
    bustBuildCache(repos.root, 'slow-build');
    ctx = await createTestContext({ database: 'postgres', env: { LOCAL_REPOS_DIR: repos.root } });
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
        LOCAL_REPOS_DIR: repos.root,
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    // ... and is killed while the slow build runs.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row] = await ctx.platform.db.select().from(deployments).where(eq(deployments.id, deploymentId));
      const building = row?.steps.find((s) => s.name === 'deploy-application')?.status === 'in_progress';
      if (building) break;
      if (Date.now() > deadline)
        throw new Error(`the worker never reached the build: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    worker.kill('SIGKILL');
    const killedAt = Date.now();

    // The platform starts again.
    await startDeploymentWorker(ctx.platform);
    let status: { state: string; error: string | null } | undefined;
    while (Date.now() - killedAt < 60_000) {
      status = (await client.get(`/api/workflow/deployment/status/${sessionId}`)).json();
      if (status?.state !== 'started') break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(status).toMatchObject({ state: 'failed', error: PLATFORM_RESTARTED_MESSAGE });
    const job = (await client.get(`/api/deployment/job/${deploymentId}`)).json();
    expect(job.failure_reason).toBe(PLATFORM_RESTARTED_MESSAGE);
    const [workspace] = await ctx.platform.db.query.workspaces.findMany();
    expect(workspace?.status).toBe('failed');
    expect(await containersOf(workspace!.id)).toHaveLength(0);
    // The build log up to the crash is still there, with the reason at the end.
    const log = await client.get('/api/logs/operator/slow-build/stream?log_type=build&initial_lines=500');
    expect(log.body).toContain('==> deploy-application');
    expect(log.body).toContain(`Deployment failed: ${PLATFORM_RESTARTED_MESSAGE}`);
    // A new deployment of the workspace can start (and is waited for, so it leaves nothing behind).
    const again = await deployAndWait(client, { repo: 'slow-build' });
    expect(again.status.state).toBe('completed');
  }, 240_000);
});
