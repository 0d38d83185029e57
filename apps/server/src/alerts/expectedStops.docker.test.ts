import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { previews, workspaces } from '../infra/db/schema.js';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  runServiceContainer,
  testDocker,
  waitUntil,
} from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { StopReason } from './expectedStops.js';

const docker = testDocker();
const SERVE = 'while true; do sleep 1; done';

/**
 * Issue 38, item 5: a deletion, a stop or a preview's removal stops containers on purpose and says so first; the
 * health monitor (following the engine's events, and polling every second here) raises no alert for those deaths.
 */
describeWith('docker')('stops Slipway makes on purpose', () => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let owner: { client: TestClient; userId: string };
  /** Each death the monitor asked about: `{workspace id}/{service}` → the announcement that explained it. */
  const explained = new Map<string, StopReason | undefined>();
  const created: WorkspaceRow[] = [];

  const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.to.includes(address));
  const rowOf = async (id: string) =>
    (await ctx.platform.db.select().from(workspaces).where(eq(workspaces.id, id)))[0];

  /** A live workspace with two running services (one restarted by the engine), its alerts mailed to `mailTo`. */
  async function runningWorkspace(options: { name?: string; mailTo?: string } = {}) {
    // Live (watched) only once its containers run: the poll would find none before.
    const workspace = await insertWorkspace(ctx.platform, {
      userId: owner.userId,
      status: 'starting',
      ...(options.name ? { name: options.name } : {}),
    });
    created.push(workspace);
    const saved = await owner.client.put(`/api/alerts/config/${workspace.name}`, {
      global_enabled: true,
      rules: [],
      sinks: [
        {
          sink_type: 'email',
          enabled: true,
          config: { to_email: options.mailTo ?? `${workspace.name}@example.com` },
        },
      ],
    });
    expect(saved.statusCode).toBe(200);
    await runServiceContainer(docker, workspace, 'web', SERVE);
    await runServiceContainer(docker, workspace, 'worker', SERVE, { restart: 'always' });
    await ctx.platform.db.update(workspaces).set({ status: 'live' }).where(eq(workspaces.id, workspace.id));
    // Watched and well: no alert before the test acts.
    const live = (await rowOf(workspace.id))!;
    await ctx.platform.runningApps.healthMonitor.check(live);
    expect((await owner.client.get(`/api/alerts-active/${workspace.name}`)).json()).toEqual([]);
    return live;
  }

  /** Until the monitor has judged the death of each of the workspace's two services. */
  const deathsHandled = (workspace: WorkspaceRow) =>
    waitUntil(
      () => ['web', 'worker'].every((service) => explained.has(`${workspace.id}/${service}`)),
      20_000,
      `the deaths of ${workspace.name}'s services`,
    );

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    ctx = await createTestContext({ env: { SMTP_URL: smtp.url, HEALTH_CHECK_INTERVAL_MS: '1000' } });
    owner = await signInNewUser(ctx);
    const stops = ctx.platform.runningApps.expectedStops;
    const explainsDeath = stops.explainsDeath.bind(stops);
    vi.spyOn(stops, 'explainsDeath').mockImplementation(async (workspaceId, service, diedAt) => {
      const reason = await explainsDeath(workspaceId, service, diedAt);
      explained.set(`${workspaceId}/${service}`, reason);
      return reason;
    });
    await ctx.platform.runningApps.start();
    await runningWorkspace();
    await ctx.platform.runningApps.healthMonitor.refreshEngines();
    await waitUntil(
      () => ctx.platform.runningApps.healthMonitor.watchedEngines > 0,
      10_000,
      'the event stream',
    );
  });

  afterAll(async () => {
    for (const workspace of created) await removeWorkspaceContainers(docker, workspace.id);
    vi.restoreAllMocks();
    await ctx?.close();
    await smtp?.close();
  });

  it('sends no alert when a workspace is deleted', async () => {
    const workspace = await runningWorkspace();
    const deleted = await owner.client.delete(`/api/workspace-delete/${workspace.name}`);
    expect(deleted.json()).toEqual({ success: true, message: `Workspace ${workspace.name} deleted` });
    await deathsHandled(workspace);
    expect(explained.get(`${workspace.id}/web`)).toBe('deletion');
    expect(explained.get(`${workspace.id}/worker`)).toBe('deletion');
    expect(await rowOf(workspace.id)).toBeUndefined();
    expect(mailsTo(`${workspace.name}@example.com`)).toEqual([]);
  });

  it('sends no alert when a subscription lapses and the workspace is stopped', async () => {
    const workspace = await runningWorkspace();
    expect(await ctx.platform.workspaceLifecycle.stop(owner.userId, workspace.name)).toBe(true);
    await deathsHandled(workspace);
    expect(explained.get(`${workspace.id}/web`)).toBe('stop');
    expect((await rowOf(workspace.id))?.status).toBe('stopped');
    expect(mailsTo(`${workspace.name}@example.com`)).toEqual([]);
  });

  it('sends no alert to the parent’s channels when a closed pull request’s preview is removed', async () => {
    // Not watched itself: only its preview's containers matter here.
    const parent = await insertWorkspace(ctx.platform, {
      userId: owner.userId,
      withVm: false,
      status: 'stopped',
    });
    created.push(parent);
    await owner.client.put(`/api/alerts/config/${parent.name}`, {
      global_enabled: true,
      rules: [],
      sinks: [{ sink_type: 'email', enabled: true, config: { to_email: `${parent.name}@example.com` } }],
    });
    const preview = await runningWorkspace({
      name: `pr-7-${parent.name}`,
      mailTo: `${parent.name}@example.com`,
    });
    await ctx.platform.db
      .update(workspaces)
      .set({ previewOf: parent.id })
      .where(eq(workspaces.id, preview.id));
    // What a closed pull request makes of its preview (previews/previewEvents.ts): removing.
    await ctx.platform.db.insert(previews).values({
      parentId: parent.id,
      workspaceId: preview.id,
      number: 7,
      title: 'A change',
      branch: 'change',
      headRef: 'pr/7',
      headSha: 'a'.repeat(40),
      author: 'octo',
      state: 'removing',
      closedAt: new Date(),
    });
    await waitUntil(
      async () => {
        await ctx.platform.previews.check();
        return (await rowOf(preview.id)) === undefined;
      },
      30_000,
      'the preview removed',
    );
    await deathsHandled(preview);
    expect(explained.get(`${preview.id}/web`)).toBe('preview removal');
    expect(mailsTo(`${parent.name}@example.com`)).toEqual([]);
  });
});
