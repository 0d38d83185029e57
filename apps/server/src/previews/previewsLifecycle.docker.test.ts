import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEPLOYMENT_CANCELLED_MESSAGE } from '@slipway/contract';
import { desc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { deployments, logChunks, previews, workspaces } from '../infra/db/schema.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listWorkspaceImages } from '../infra/docker/projectResources.js';
import { containersOf, deployAndWait, docker, loopback } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { git } from '../test/fixtures/fixtureRepos.js';
import { LIVE_IN_MS, previewWaits } from '../test/previewWaits.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';

const site = (page: string) =>
  `FROM busybox:1.36\nRUN mkdir -p /www && echo '${page}' > /www/index.html\nEXPOSE 8080\nCMD ["httpd", "-f", "-p", "8080", "-h", "/www"]\n`;
/** A build whose one step lasts a minute, never cached: a deployment that is still running when the test acts. */
const slowSite = () =>
  `FROM busybox:1.36\nRUN echo ${randomBytes(6).toString('hex')} && sleep 60\nEXPOSE 8080\nCMD ["httpd", "-f", "-p", "8080"]\n`;
const PRIVILEGED_COMPOSE = 'services:\n  app:\n    build: .\n    ports: ["8080"]\n    privileged: true\n';

/**
 * Issue 31, what previews.docker.test.ts leaves out: a newer push cancelling the deployment of an older commit
 * still running, a compose file the policy refuses (the refusal is the preview's cause), and the parent
 * workspace's deletion taking its previews with everything they made.
 */
describeWith('docker')('previews, the hard cases', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '20' });
  let repoDir = '';

  const commitOn = (branch: string, files: Record<string, string | null>) => {
    git(repoDir, ['checkout', '-q', '-B', branch]);
    for (const [file, content] of Object.entries(files)) {
      if (content === null) rmSync(path.join(repoDir, file));
      else writeFileSync(path.join(repoDir, file), content);
    }
    git(repoDir, ['add', '-A']);
    git(repoDir, ['commit', '-q', '-m', branch]);
    const sha = git(repoDir, ['rev-parse', 'HEAD']).toString().trim();
    git(repoDir, ['checkout', '-q', 'main']);
    return sha;
  };
  const db = () => engine.ctx.platform.db;
  const workspaceRow = async (name: string) =>
    (await db().select().from(workspaces).where(eq(workspaces.name, name)))[0];
  const deploymentsOf = (name: string) =>
    db()
      .select()
      .from(deployments)
      .where(eq(deployments.workspaceName, name))
      .orderBy(desc(deployments.createdAt));
  const { until } = previewWaits(engine, 'lab');
  /** Waits until preview `number` has a deployment building (running), and answers it. */
  const building = (number: number) =>
    waitUntil(
      async () => {
        await engine.ctx.platform.previews.check();
        const [latest] = await deploymentsOf(`pr-${number}-lab`);
        // Past its fetch (its commit recorded): a newer push now cancels it. Before, its fetch finds the newer
        // commit and fails on its own ("The pull request moved on …"), which a loaded machine showed.
        return latest?.status === 'running' && latest.commitSha !== null && latest;
      },
      LIVE_IN_MS,
      `preview ${number} building`,
    );

  async function expectNothingLeft(id: string, name: string) {
    const filter = { label: [`${LABELS.composeProject}=${composeProjectName(id)}`] };
    expect(await containersOf(id)).toHaveLength(0);
    expect((await docker.listVolumes({ filters: filter })).Volumes ?? []).toHaveLength(0);
    expect(await docker.listNetworks({ filters: filter })).toHaveLength(0);
    expect(await listWorkspaceImages(docker, id)).toHaveLength(0);
    expect(await workspaceRow(name)).toBeUndefined();
    expect(await db().select().from(logChunks).where(eq(logChunks.workspaceName, name))).toEqual([]);
    expect(await deploymentsOf(name)).toEqual([]);
  }

  it('cancels the deployment of an older commit still running when a newer one is pushed', async () => {
    repoDir = engine.world.repo('lab', { Dockerfile: site('production') });
    expect((await deployAndWait(engine.client, { repo: 'lab' })).status.error).toBeNull();
    await engine.client.put('/api/workspace-preview-settings/lab', { enabled: true, max_running: 5 });

    commitOn('pr/4', { Dockerfile: slowSite() });
    const slow = await building(4);
    const started = Date.now();
    const newer = commitOn('pr/4', { Dockerfile: site('the newer commit') });
    const live = await until(
      4,
      (p) => p?.state === 'live' && p.head_sha === newer,
      'preview 4 at the newer commit',
    );
    // Well inside the slow build's minute: it was cancelled, not waited for.
    expect(Date.now() - started).toBeLessThan(50_000);
    const [cancelled] = await db().select().from(deployments).where(eq(deployments.id, slow.id));
    expect(cancelled).toMatchObject({ status: 'failed', error: DEPLOYMENT_CANCELLED_MESSAGE });
    expect(await (await fetch(loopback(live.urls.app!))).text()).toBe('the newer commit\n');
  });

  it("gives the policy's refusal of the pull request's own compose file as the preview's cause", async () => {
    commitOn('pr/5', { 'compose.yaml': PRIVILEGED_COMPOSE });
    const failed = await until(5, (p) => p?.state === 'failed', 'preview 5 failed');
    expect(failed.cause).toContain("Service 'app' uses privileged: true, which is not allowed");
    expect(await containersOf((await workspaceRow('pr-5-lab'))!.id)).toHaveLength(0);
    // Production's own compose-less build is untouched.
    const production = await workspaceRow('lab');
    expect(await (await fetch(loopback(production!.serviceUrls.app!))).text()).toBe('production\n');
  });

  it('removes every preview, with all each one made, when the parent workspace is deleted', async () => {
    const live = await until(4, (p) => p?.state === 'live', 'preview 4 live');
    commitOn('pr/6', { Dockerfile: slowSite() });
    await building(6);
    const made = await Promise.all(
      ['pr-4-lab', 'pr-5-lab', 'pr-6-lab'].map(async (name) => ({
        name,
        id: (await workspaceRow(name))!.id,
      })),
    );
    expect(live.workspace).toBe('pr-4-lab');
    const { id: parentId } = (await workspaceRow('lab'))!;

    const deleted = await engine.client.delete('/api/workspace-delete/lab');
    expect(deleted.statusCode).toBe(200);
    // A deployment still running when its workspace went ends (the worker notices) without bringing it back.
    await waitUntil(
      async () => (await deploymentsOf('pr-6-lab')).every((row) => row.status !== 'running'),
      LIVE_IN_MS,
      "preview 6's deployment ended",
    );
    await engine.ctx.platform.previews.check();
    for (const { name, id } of made) await expectNothingLeft(id, name);
    expect(await db().select().from(previews).where(eq(previews.parentId, parentId))).toEqual([]);
  });
});
