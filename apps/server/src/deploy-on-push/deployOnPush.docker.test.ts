import { randomBytes } from 'node:crypto';
import type { WorkspaceRevisions } from '@slipway/contract';
import { asc, eq } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { ACTIVE_STATUSES } from '../deployments/deploymentRepository.js';
import { deployments, workspaces } from '../infra/db/schema.js';
import { deployAndWait, docker, loopback } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { git } from '../test/fixtures/fixtureRepos.js';
import { deliverGithubEvent, githubPushPayload } from '../test/githubDeliveries.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import type { PushDeployer } from './pushDeployer.js';

const SECRET = randomBytes(20).toString('hex');
const DEPLOYED_IN_MS = 240_000;

/** A one-service site whose page is `page`; `buildSteps` are extra Dockerfile lines (a slow or failing build). */
const site = (page: string, buildSteps = '') => ({
  Dockerfile: `FROM busybox:1.36\nRUN mkdir -p /www && echo '${page}' > /www/index.html\n${buildSteps}EXPOSE 8080\nCMD ["httpd", "-f", "-p", "8080", "-h", "/www"]\n`,
});

/**
 * Issue 15, deploy on push, on the real engine: GitHub-shaped push deliveries signed as GitHub signs them, real
 * commits in the workspace's repository, real deployments to Live; then the local-mode branch-head watcher.
 */
describeWith('docker')('deploy on push', () => {
  const engine = useEngineWorld({ GITHUB_WEBHOOK_SECRET: SECRET, DEPLOY_HEALTH_TIMEOUT_SECONDS: '20' });
  let deployer: PushDeployer | undefined;
  afterEach(async () => {
    await deployer?.stop();
    deployer = undefined;
  });

  /** Commits a new version of the site; answers its SHA. */
  const commit = (page: string, buildSteps = '') =>
    git(engine.world.repo('site', site(page, buildSteps)), ['rev-parse', 'HEAD'])
      .toString()
      .trim();
  const push = (sha: string) =>
    deliverGithubEvent(
      new TestClient(engine.ctx.app),
      SECRET,
      'push',
      githubPushPayload({ owner: 'operator', repo: 'site', branch: 'main', after: sha }),
    );
  const pushDeployments = () =>
    engine.ctx.platform.db
      .select()
      .from(deployments)
      .where(eq(deployments.workflowType, 'push'))
      .orderBy(asc(deployments.createdAt));
  const workspace = async () => (await engine.ctx.platform.db.select().from(workspaces))[0]!;
  const page = async () => (await fetch(loopback((await workspace()).serviceUrls.app!))).text();
  /**
   * Waits until `count` push deployments exist, every one has ended and no push is pending: from then on no
   * other deployment can start, so the rows are all there will be.
   */
  const settled = (count: number) =>
    waitUntil(
      async () => {
        const rows = await pushDeployments();
        const ended = rows.every((row) => !ACTIVE_STATUSES.includes(row.status));
        return rows.length >= count && ended && (await workspace()).pushPendingAt === null && rows;
      },
      DEPLOYED_IN_MS,
      `${count} push deployments to end`,
    );

  it('deploys a burst of three pushes once, the newest commit, to Live', async () => {
    commit('version 1');
    const first = await deployAndWait(engine.client, { repo: 'site' });
    expect(first.status.error).toBeNull();
    expect(await page()).toBe('version 1\n');
    const on = await engine.client.put('/api/workspace-deploy-on-push/site', { enabled: true });
    expect(on.json()).toEqual({ enabled: true });
    deployer = engine.ctx.platform.deployOnPush.createDeployer({
      coalesceMs: 3_000,
      intervalMs: 200,
      watchLocalHeads: false,
    });
    deployer.start();

    const shas: string[] = [];
    for (const version of [2, 3, 4]) {
      shas.push(commit(`version ${version}`));
      const delivered = await push(shas.at(-1)!);
      expect(delivered.json()).toMatchObject({ status: 'queued', workspaces: 1 });
    }
    const rows = await settled(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'completed', commitSha: shas[2], workflowType: 'push' });
    expect(await page()).toBe('version 4\n');
    const revisions = (await engine.client.get('/api/workspace-revisions/site')).json() as WorkspaceRevisions;
    expect(revisions.revisions[0]).toMatchObject({ trigger: 'push', commit_sha: shas[2], current: true });
  });

  it('follows a deployment that pushes arrived during with exactly one more, of the newest commit', async () => {
    deployer = engine.ctx.platform.deployOnPush.createDeployer({
      coalesceMs: 1_000,
      intervalMs: 200,
      watchLocalHeads: false,
    });
    deployer.start();
    const slow = commit('version 5', 'RUN sleep 8\n');
    await push(slow);
    // Running, and past the fetch: the commits below are not what it deploys.
    const running = await waitUntil(
      async () => (await pushDeployments()).find((row) => row.status === 'running' && row.commitSha),
      DEPLOYED_IN_MS,
      'the slow push deployment to fetch its commit',
    );
    expect(running.commitSha).toBe(slow);
    await push(commit('version 6'));
    const newest = commit('version 7');
    await push(newest);

    const rows = await settled(3);
    expect(rows.map((row) => [row.status, row.commitSha])).toEqual([
      ['completed', expect.any(String)],
      ['completed', slow],
      ['completed', newest],
    ]);
    expect(await page()).toBe('version 7\n');
  });

  it('in local mode deploys a new branch head once, and does not retry a commit whose deployment failed', async () => {
    deployer = engine.ctx.platform.deployOnPush.createDeployer({ coalesceMs: 0, intervalMs: 200 });
    deployer.start();
    // No webhook: only the branch moves.
    const next = commit('version 8');
    let rows = await settled(4);
    expect(rows).toHaveLength(4);
    expect(rows[3]).toMatchObject({ status: 'completed', commitSha: next });
    expect(await page()).toBe('version 8\n');
    expect(await deployer.check()).toBe(0);
    expect(await pushDeployments()).toHaveLength(4);

    const failing = `this build fails ${randomBytes(4).toString('hex')}`;
    const broken = commit('version 9', `RUN echo "${failing}" && exit 3\n`);
    rows = await settled(5);
    expect(rows[4]).toMatchObject({ status: 'failed', commitSha: broken });
    // The failed build step left no container behind.
    const leftovers = await docker.listContainers({ all: true });
    expect(leftovers.filter((c) => c.Command.includes(failing))).toEqual([]);
    expect(await deployer.check()).toBe(0);
    expect(await deployer.check()).toBe(0);
    expect(await pushDeployments()).toHaveLength(5);
    expect((await workspace()).pushSeenSha).toBe(broken);
    expect(await page()).toBe('version 8\n');
  });
});
