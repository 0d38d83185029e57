import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PREVIEW_DEFAULTS } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { deployments, logChunks, workspaces } from '../infra/db/schema.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listWorkspaceImages } from '../infra/docker/projectResources.js';
import { createGithubPullRequestNotes } from '../infra/github/githubPullRequestNotes.js';
import { containersOf, deployAndWait, docker, loopback } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { git } from '../test/fixtures/fixtureRepos.js';
import { deliverGithubEvent } from '../test/githubDeliveries.js';
import { previewWaits } from '../test/previewWaits.js';
import { githubIssueCommentPayload, githubPullRequestPayload } from '../test/pullRequestDeliveries.js';
import { describeWith } from '../test/services.js';
import { type GithubStandin, startGithubStandin } from '../test/standins/github.js';
import { TestClient } from '../test/testClient.js';

const SECRET = randomBytes(20).toString('hex');

/** A one-service site whose page is `page`, showing its variables SHOWN and OTHER at /shown.txt. */
const site = (page: string) =>
  `FROM busybox:1.36\nRUN mkdir -p /www && echo '${page}' > /www/index.html\nEXPOSE 8080\nCMD ["sh", "-c", "echo \\"$SHOWN|$OTHER\\" > /www/shown.txt && exec httpd -f -p 8080 -h /www"]\n`;

/**
 * Issue 31, previews on the real engine: a pull request's whole life from local `pr/{n}` branches and from
 * GitHub-shaped deliveries (the comment edited in place on the GitHub stand-in), the fork path, the sweep; the
 * production workspace serving its own page throughout.
 */
describeWith('docker')('previews', () => {
  let github: GithubStandin;
  let token = '';
  beforeAll(async () => {
    github = await startGithubStandin();
    token = github.addUser({ login: 'operator' }).token;
    return () => github.close();
  });
  const engine = useEngineWorld(
    { GITHUB_WEBHOOK_SECRET: SECRET, DEPLOY_HEALTH_TIMEOUT_SECONDS: '20' },
    {
      pullRequestNotes: {
        writeComment: (...args) => notes().writeComment(...args),
        setStatus: (...args) => notes().setStatus(...args),
      },
    },
  );
  const notes = () => createGithubPullRequestNotes({ apiUrl: github.url, tokenFor: async () => token });
  let repoDir = '';

  const commitOn = (branch: string, page: string) => {
    git(repoDir, ['checkout', '-q', '-B', branch]);
    writeFileSync(path.join(repoDir, 'Dockerfile'), site(page));
    git(repoDir, ['commit', '-q', '-am', page]);
    const sha = git(repoDir, ['rev-parse', 'HEAD']).toString().trim();
    git(repoDir, ['checkout', '-q', 'main']);
    return sha;
  };
  const workspaceRow = async (name: string) =>
    (await engine.ctx.platform.db.select().from(workspaces).where(eq(workspaces.name, name)))[0];
  const page = async (name: string, file = '') =>
    (await fetch(loopback(`${(await workspaceRow(name))!.serviceUrls.app}/${file}`))).text();
  const { listed, until } = previewWaits(engine, 'site');
  const liveAt = (number: number, sha: string) =>
    until(
      number,
      (p) => p?.state === 'live' && p.head_sha === sha,
      `preview ${number} live at ${sha.slice(0, 7)}`,
    );
  const deliver = (event: string, payload: unknown) =>
    deliverGithubEvent(new TestClient(engine.ctx.app), SECRET, event, payload);

  /** Nothing of workspace `name` left in the engine or the database. */
  async function expectNothingLeft(id: string, name: string) {
    const filter = { label: [`${LABELS.composeProject}=${composeProjectName(id)}`] };
    expect(await containersOf(id)).toHaveLength(0);
    expect((await docker.listVolumes({ filters: filter })).Volumes ?? []).toHaveLength(0);
    expect(await docker.listNetworks({ filters: filter })).toHaveLength(0);
    expect(await listWorkspaceImages(docker, id)).toHaveLength(0);
    const { db } = engine.ctx.platform;
    expect(await workspaceRow(name)).toBeUndefined();
    expect(await db.select().from(logChunks).where(eq(logChunks.workspaceName, name))).toEqual([]);
    expect(await db.select().from(deployments).where(eq(deployments.workspaceName, name))).toEqual([]);
  }

  it('answers the defaults, off, until the owner turns previews on', async () => {
    repoDir = engine.world.repo('site', { Dockerfile: site('production') });
    const production = await deployAndWait(engine.client, { repo: 'site' });
    expect(production.status.error).toBeNull();
    const settings = await engine.client.get('/api/workspace-preview-settings/site');
    expect(settings.json()).toEqual(PREVIEW_DEFAULTS);
    commitOn('pr/3', 'not while off');
    await engine.ctx.platform.previews.check();
    expect(await listed(3)).toBeUndefined();
    git(repoDir, ['branch', '-q', '-D', 'pr/3']);
    const on = await engine.client.put('/api/workspace-preview-settings/site', { enabled: true });
    expect(on.json()).toEqual({ ...PREVIEW_DEFAULTS, enabled: true });
    // The plain list shows the workspace, never its previews.
    expect(await page('site')).toBe('production\n');
  });

  it('in local mode follows pr/7 from creation through two pushes to its deletion, leaving nothing', async () => {
    const first = commitOn('pr/7', 'preview one');
    const created = await liveAt(7, first);
    expect(created).toMatchObject({ workspace: 'pr-7-site', from_fork: false, needs_approval: false });
    // Its hosts are `{service}-pr-7-site.{domain}` behind Caddy (named after the workspace); a port here.
    expect(created.urls.app).toMatch(/^http/);
    expect(await page('pr-7-site')).toBe('preview one\n');
    for (const version of ['preview two', 'preview three']) {
      const sha = commitOn('pr/7', version);
      await liveAt(7, sha);
      expect(await page('pr-7-site')).toBe(`${version}\n`);
    }
    const { id } = (await workspaceRow('pr-7-site'))!;
    const workspaceList = (await engine.client.get('/api/workspaces')).body;
    expect(workspaceList).not.toContain('pr-7-site');
    git(repoDir, ['branch', '-q', '-D', 'pr/7']);
    await until(7, (p) => p === undefined, 'preview 7 removed');
    await expectNothingLeft(id, 'pr-7-site');
    expect(await page('site')).toBe('production\n');
  });

  it('in local mode follows a refs/pull/12/head ref (as a fetch of GitHub pull refs leaves it) the same way', async () => {
    const atRef = (page: string) => {
      const sha = commitOn('scratch-12', page);
      git(repoDir, ['update-ref', 'refs/pull/12/head', sha]);
      git(repoDir, ['branch', '-q', '-D', 'scratch-12']);
      return sha;
    };
    await liveAt(12, atRef('pull ref one'));
    expect(await page('pr-12-site')).toBe('pull ref one\n');
    await liveAt(12, atRef('pull ref two'));
    expect(await page('pr-12-site')).toBe('pull ref two\n');
    const { id } = (await workspaceRow('pr-12-site'))!;
    git(repoDir, ['update-ref', '-d', 'refs/pull/12/head']);
    await until(12, (p) => p === undefined, 'preview 12 removed');
    await expectNothingLeft(id, 'pr-12-site');
  });

  it('with GitHub deliveries: opened, synchronize twice, closed; one comment edited in place', async () => {
    const pull = (action: 'opened' | 'synchronize' | 'closed', sha: string) =>
      deliver(
        'pull_request',
        githubPullRequestPayload({ action, owner: 'operator', repo: 'site', number: 9, sha }),
      );
    const push = (page: string) => {
      const sha = commitOn('change-9', page);
      git(repoDir, ['update-ref', 'refs/pull/9/head', sha]);
      return sha;
    };
    let sha = push('github one');
    expect((await pull('opened', sha)).json()).toMatchObject({ status: 'queued', workspaces: 1 });
    await liveAt(9, sha);
    expect(await page('pr-9-site')).toBe('github one\n');
    for (const version of ['github two', 'github three']) {
      sha = push(version);
      await pull('synchronize', sha);
      await liveAt(9, sha);
      expect(await page('pr-9-site')).toBe(`${version}\n`);
    }
    expect(github.state.comments).toHaveLength(1);
    expect(github.state.comments[0]!.updates).toBeGreaterThan(2);
    expect(github.state.comments[0]!.body).toContain('Live');
    expect(github.state.statuses.filter((s) => s.sha === sha).at(-1)).toMatchObject({
      state: 'success',
      context: 'slipway/preview',
    });
    const { id } = (await workspaceRow('pr-9-site'))!;
    await pull('closed', sha);
    // The test's stand-in for GitHub's ref goes too: in local mode a refs/pull ref is itself a pull request.
    git(repoDir, ['update-ref', '-d', 'refs/pull/9/head']);
    await until(9, (p) => p === undefined, 'preview 9 removed');
    await expectNothingLeft(id, 'pr-9-site');
    expect(github.state.comments).toHaveLength(1);
    expect(github.state.comments[0]!.body).toContain('Removed');
    // A closed event for a pull request without a preview is ignored.
    expect((await pull('closed', sha)).json()).toMatchObject({ status: 'ignored', workspaces: 0 });
    expect(await page('site')).toBe('production\n');
  });

  it("runs a fork's pull request only once approved, for that commit only, without production's values", async () => {
    await engine.client.post('/api/env-variables/site/upload', {
      variables: [
        { key: 'SHOWN', value: 'production-secret' },
        { key: 'OTHER', value: 'production-only' },
      ],
    });
    // Marked for previews but with production's value: a stranger's preview still does not get it.
    await engine.client.put('/api/workspace-preview-variables/site/OTHER', { also_for_previews: true });
    const fork = (action: 'opened' | 'synchronize', sha: string) =>
      deliver(
        'pull_request',
        githubPullRequestPayload({
          action,
          owner: 'operator',
          repo: 'site',
          number: 11,
          sha,
          author: 'stranger',
          headRepo: 'stranger/site',
          association: 'FIRST_TIME_CONTRIBUTOR',
        }),
      );
    const push = (page: string) => {
      const sha = commitOn('fork-11', page);
      git(repoDir, ['update-ref', 'refs/pull/11/head', sha]);
      return sha;
    };
    const first = push('fork one');
    await fork('opened', first);
    const waiting = await until(11, (p) => p?.state === 'awaiting_approval', 'preview 11 awaiting approval');
    expect(waiting).toMatchObject({ from_fork: true, needs_approval: true, approved_sha: null });
    expect(await workspaceRow('pr-11-site')).toBeUndefined();
    // A comment by someone without write access approves nothing.
    const ignored = githubIssueCommentPayload({
      owner: 'operator',
      repo: 'site',
      number: 11,
      body: '/slipway preview',
      login: 'stranger',
      association: 'CONTRIBUTOR',
    });
    expect((await deliver('issue_comment', ignored)).json()).toMatchObject({ status: 'ignored' });
    await engine.client.put('/api/workspace-preview-variables/site/SHOWN', {
      preview_value: 'preview-value',
    });

    const approved = await engine.client.post('/api/workspace-previews/site/11/approve');
    expect(approved.json()).toMatchObject({ approved_sha: first });
    await liveAt(11, first);
    expect(await page('pr-11-site')).toBe('fork one\n');
    expect(await page('pr-11-site', 'shown.txt')).toBe('preview-value|\n');

    const second = push('fork two');
    await fork('synchronize', second);
    await until(
      11,
      (p) => p?.state === 'awaiting_approval' && p.head_sha === second,
      'a new approval asked for',
    );
    expect(await page('pr-11-site')).toBe('fork one\n');
    const byComment = githubIssueCommentPayload({
      owner: 'operator',
      repo: 'site',
      number: 11,
      body: '/slipway preview',
      login: 'operator',
      association: 'OWNER',
    });
    expect((await deliver('issue_comment', byComment)).json()).toMatchObject({
      status: 'queued',
      workspaces: 1,
    });
    await liveAt(11, second);
    expect(await page('pr-11-site')).toBe('fork two\n');
    const { id } = (await workspaceRow('pr-11-site'))!;
    const removed = await engine.client.delete('/api/workspace-previews/site/11');
    expect(removed.statusCode).toBe(200);
    git(repoDir, ['update-ref', '-d', 'refs/pull/11/head']);
    await until(11, (p) => p === undefined, 'preview 11 removed');
    await expectNothingLeft(id, 'pr-11-site');
  });

  it('sweeps previews idle for longer than the set days, and waits over the most running at once', async () => {
    await engine.client.put('/api/workspace-preview-settings/site', { max_running: 1 });
    const a = commitOn('pr/21', 'sweep a');
    await liveAt(21, a);
    commitOn('pr/22', 'sweep b');
    const waiting = await until(22, (p) => p?.state === 'waiting_for_slot', 'preview 22 waiting');
    expect(waiting.cause).toContain('1 preview is running');
    expect(await engine.ctx.platform.previews.service.sweep(new Date(Date.now() + 6 * 24 * 3600_000))).toBe(
      0,
    );
    expect(await engine.ctx.platform.previews.service.sweep(new Date(Date.now() + 8 * 24 * 3600_000))).toBe(
      2,
    );
    // Their branches go too, or the watcher would open them again as the pull requests they still are.
    git(repoDir, ['branch', '-q', '-D', 'pr/21', 'pr/22']);
    await until(21, (p) => p === undefined, 'preview 21 swept');
    await until(22, (p) => p === undefined, 'preview 22 swept');
    expect(await page('site')).toBe('production\n');
  });
});
