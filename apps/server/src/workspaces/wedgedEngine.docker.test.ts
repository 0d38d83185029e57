import type { CadvisorContainerInfo, WorkspaceSummary } from '@slipway/contract';
import type Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { workspaces } from '../infra/db/schema.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { signInAdmin } from '../test/adminClient.js';
import { containersOf, deployAndWait, docker } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { insertWorkspace, runServiceContainer, waitUntil } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import type { TestClient } from '../test/testClient.js';
import { type WedgedContainer, wedgedContainer } from '../test/wedgedContainer.js';
import { DELETE_ANSWER_MS } from './workspaceLifecycle.js';
import type { WorkspaceRow } from './workspacesRepository.js';

const CONTAINERS = '/api/admin/cadvisor/api/v1.3/containers';
const SITE =
  'FROM busybox:1.36\nRUN mkdir -p /www && echo up > /www/index.html\nEXPOSE 8080\nCMD ["httpd", "-f", "-p", "8080", "-h", "/www"]\n';

/** How long `run` took, with what it answered. */
async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await run();
  return { ms: Date.now() - started, value };
}

/**
 * Issue 38, item 4: one container the engine cannot answer about (a backup's throwaway whose output nobody read,
 * killed) froze every engine-wide call. With it on the engine — and a paused service beside it — deleting another
 * workspace, the admin's container cards, the health checks and a deployment all answer within their deadlines,
 * and deleting the workspace it belongs to answers within 30 s and finishes once the engine answers again.
 */
describeWith('docker')('a container the Docker Engine cannot answer about', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '60', HEALTH_CHECK_INTERVAL_MS: '600000' });
  let admin: TestClient;
  let userId: string;
  let stuck: WorkspaceRow;
  let wedged: WedgedContainer | undefined;
  let paused: Docker.Container | undefined;

  const rowOf = async (id: string) =>
    (await engine.ctx.platform.db.select().from(workspaces).where(eq(workspaces.id, id)))[0];

  beforeAll(async () => {
    admin = await signInAdmin(engine.ctx);
    // Built before anything is wedged: the redeploy below runs beside it.
    engine.world.repo('site', { Dockerfile: SITE });
    const first = await deployAndWait(engine.client, { repo: 'site' });
    expect(first.status.error).toBeNull();
    const [site] = await engine.ctx.platform.db.select().from(workspaces).where(eq(workspaces.name, 'site'));
    userId = site!.userId;

    // A live workspace whose `files` service a backup holds paused, and whose `tar` throwaway is wedged.
    stuck = await insertWorkspace(engine.ctx.platform, { userId });
    paused = await runServiceContainer(docker, stuck, 'files', 'while true; do sleep 1; done');
    await paused.pause();
    wedged = await wedgedContainer(docker, {
      [LABELS.workspaceId]: stuck.id,
      [LABELS.userId]: userId,
      [LABELS.composeProject]: composeProjectName(stuck.id),
      [LABELS.composeService]: 'tar',
    });
  }, 400_000);

  afterAll(async () => {
    await wedged?.release();
    await paused?.unpause().catch(() => {});
    await paused?.remove({ force: true }).catch(() => {});
  });

  it('lists the admin’s containers without it, saying which one the engine did not answer about', async () => {
    const first = await timed(() => admin.get(CONTAINERS));
    expect(first.value.statusCode).toBe(200);
    // The stats deadline (15 s) and the rest of the listing.
    expect(first.ms).toBeLessThan(25_000);
    const root = first.value.json() as CadvisorContainerInfo;
    const shortId = wedged!.id.slice(0, 12);
    expect(root.unanswered).toEqual([
      {
        id: wedged!.id,
        name: expect.any(String),
        sentence: `The Docker Engine did not answer within 15 s when asked for the resource usage of container ${shortId}`,
      },
    ]);
    // What the engine could say: the paused service's card, and the deployed site's.
    const ids = (root.subcontainers ?? []).map((container) => ('id' in container ? container.id : undefined));
    expect(ids).toContain(paused!.id);
    // Known now: the next listing does not wait for it again.
    const second = await timed(() => admin.get(CONTAINERS));
    expect(second.ms).toBeLessThan(5_000);
    expect((second.value.json() as CadvisorContainerInfo).unanswered?.map((c) => c.id)).toEqual([wedged!.id]);
  });

  it('runs the health checks past it', async () => {
    const monitor = engine.ctx.platform.runningApps.healthMonitor;
    const pass = await timed(() => monitor.checkAll());
    // An inspect's deadline at most (30 s), once; the admin's listing already found it out.
    expect(pass.ms).toBeLessThan(35_000);
    expect((await timed(() => monitor.check(stuck))).ms).toBeLessThan(35_000);
  });

  it('follows the logs of the other containers past it', async () => {
    const pipeline = engine.ctx.platform.runningApps.logPipeline;
    try {
      await pipeline.refreshEngines();
      // The site's container and the paused service: every workspace container but the one that does not answer.
      await waitUntil(
        () => pipeline.collectors().some((collector) => collector.followed === 2),
        10_000,
        'the log collector to follow the containers that answer',
      );
    } finally {
      await pipeline.stop();
    }
  });

  it('deletes another workspace within 30 s', async () => {
    const other = await insertWorkspace(engine.ctx.platform, { userId });
    await runServiceContainer(docker, other, 'web', 'while true; do sleep 1; done');
    await runServiceContainer(docker, other, 'worker', 'while true; do sleep 1; done', { restart: 'always' });
    const deleted = await timed(() => engine.client.delete(`/api/workspace-delete/${other.name}`));
    expect(deleted.ms).toBeLessThan(30_000);
    expect(deleted.value.json()).toEqual({ success: true, message: `Workspace ${other.name} deleted` });
    expect(await rowOf(other.id)).toBeUndefined();
    expect(await containersOf(other.id)).toEqual([]);
  });

  it('deploys beside it', async () => {
    const redeploy = await deployAndWait(engine.client, { repo: 'site', workflowType: 'redeploy' });
    expect(redeploy.status.error).toBeNull();
  });

  it('answers the deletion of its own workspace within 30 s, and finishes it once the engine answers', async () => {
    const deleted = await timed(() => engine.client.delete(`/api/workspace-delete/${stuck.name}`));
    expect(deleted.ms).toBeLessThan(30_000);
    expect(deleted.ms).toBeGreaterThanOrEqual(DELETE_ANSWER_MS - 1000);
    expect(deleted.value.json()).toEqual({
      success: true,
      message: `Workspace ${stuck.name} is being deleted; what is left of it is removed in the background`,
    });
    const listed = (await engine.client.get('/api/user-workspaces')).json() as WorkspaceSummary[];
    expect(listed.find((workspace) => workspace.workspace_name === stuck.name)?.status).toBe('deleting');

    // The engine answers again: the removal under way finishes by itself.
    await wedged!.release();
    await waitUntil(async () => (await rowOf(stuck.id)) === undefined, 120_000, 'the deletion to finish');
    expect(await containersOf(stuck.id)).toEqual([]);
  });
});
