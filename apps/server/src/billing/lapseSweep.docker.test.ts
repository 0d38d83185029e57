import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { workspaces } from '../infra/db/schema.js';
import { cleanUpWorkspaces, containersOf, deployAndWait } from '../test/deployments.js';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { sweepLapsedWorkspaces } from './lapseSweep.js';
import type { LapsedWorkspace } from './lapses.js';

describeWith('docker')('stopping workspaces whose subscription lapsed', () => {
  let repos: ReturnType<typeof createFixtureRepos>;
  let ctx: TestContext;

  beforeAll(async () => {
    repos = createFixtureRepos('operator');
    ctx = await createTestContext({ env: { LOCAL_REPOS_DIR: repos.root } });
    await ctx.platform.workers.start();
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    repos?.cleanup();
  });

  it('stops the containers and the routes, keeps everything else, and only then confirms the lapse', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    const { status } = await deployAndWait(client, { repo: 'single-dockerfile' });
    expect(status.state).toBe('completed');
    const [workspace] = await ctx.platform.db
      .select()
      .from(workspaces)
      .where(eq(workspaces.name, 'single-dockerfile'));
    expect((await containersOf(workspace!.id)).every((c) => c.State === 'running')).toBe(true);

    // Billing decides what lapsed (its own tests cover that against the PayPal stand-in); this is its answer.
    const lapse: LapsedWorkspace = {
      userId: workspace!.userId,
      workspaceId: workspace!.id,
      workspaceName: 'single-dockerfile',
      subscriptionId: 'sub-lapsed',
      status: 'past_due',
      lapsedAt: new Date(Date.now() - 10 * 86_400_000),
      planName: '1 GB RAM',
    };
    const confirmed: LapsedWorkspace[] = [];
    const stopped = await sweepLapsedWorkspaces({
      billing: {
        findLapsedWorkspaces: async () => [lapse],
        confirmWorkspaceStopped: async (done) => {
          // By the time billing records the stop and emails the owner, nothing may still be running.
          expect((await containersOf(done.workspaceId)).some((c) => c.State === 'running')).toBe(false);
          confirmed.push(done);
        },
      },
      stopWorkspace: (userId, name) => ctx.platform.workspaceLifecycle.stop(userId, name),
      graceDays: 3,
      logger: pino({ level: 'silent' }),
    });

    expect(stopped).toEqual([lapse]);
    expect(confirmed).toEqual([lapse]);
    const containers = await containersOf(workspace!.id);
    expect(containers.length).toBeGreaterThan(0);
    expect(containers.every((c) => c.State === 'exited')).toBe(true);
    const [after] = await ctx.platform.db.select().from(workspaces).where(eq(workspaces.id, workspace!.id));
    expect(after).toMatchObject({ status: 'stopped', serviceUrls: {} });
  });
});
