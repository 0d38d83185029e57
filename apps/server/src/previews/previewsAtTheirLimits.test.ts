import { randomBytes } from 'node:crypto';
import type { Preview } from '@slipway/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments, previews, workspaces } from '../infra/db/schema.js';
import { git } from '../test/fixtures/fixtureRepos.js';
import { deliverGithubEvent } from '../test/githubDeliveries.js';
import { githubPullRequestPayload } from '../test/pullRequestDeliveries.js';
import { createPushedRepository, refStateOf, within } from '../test/refMoves.js';
import { insertWorkspace, waitUntil } from '../test/runningWorkspaces.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const SECRET = randomBytes(20).toString('hex');

/**
 * Issue 39, previews in local mode at their limits, on the real platform with its leased deployer running (no
 * Docker: no job worker runs here, so a preview that gets a slot stays Deploying with its deployment queued; a
 * deployment's progress is written on its row by hand where a test needs it).
 */
describe('previews at their limits', () => {
  const repo = createPushedRepository('operator', 'lab');
  let ctx: TestContext;
  let owner: { client: TestClient; userId: string };
  let parent: WorkspaceRow;

  const row = async (number: number) =>
    (
      await ctx.platform.db
        .select()
        .from(previews)
        .where(and(eq(previews.parentId, parent.id), eq(previews.number, number)))
    )[0];
  const listed = async (number: number) =>
    ((await owner.client.get(`/api/workspace-previews/${parent.name}`)).json() as Preview[]).find(
      (preview) => preview.number === number,
    );
  const until = (what: string, done: () => Promise<boolean>) => waitUntil(done, 30_000, what);
  const settings = (change: Record<string, unknown>) =>
    owner.client.put(`/api/workspace-preview-settings/${parent.name}`, change);

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { LOCAL_REPOS_DIR: repo.root, GITHUB_WEBHOOK_SECRET: SECRET },
    });
    owner = await signInNewUser(ctx);
    const inserted = await insertWorkspace(ctx.platform, { userId: owner.userId, name: 'lab' });
    const [updated] = await ctx.platform.db
      .update(workspaces)
      .set({ repoOwner: 'operator', repoName: 'lab' })
      .where(eq(workspaces.id, inserted.id))
      .returning();
    parent = updated!;
    expect((await settings({ enabled: true, max_running: 1 })).statusCode).toBe(200);
    ctx.platform.previews.start();
  });
  afterAll(async () => {
    await ctx?.close();
    repo.cleanup();
  });

  it('sees every push to a pull request’s branch within 2 s: 20 pushes, the ref loose, packed, after gc', async () => {
    // Pull request 1 takes the one slot (queued: nothing runs here); 7 waits for it, so its pushes deploy nothing.
    repo.push('pr/1');
    await until('preview 1 deploying', async () => (await row(1))?.state === 'deploying');
    const waits: number[] = [];
    for (let i = 0; i < 20; i++) {
      repo.arrange(refStateOf(i));
      const sha = repo.push('pr/7');
      waits.push(await within(2000, async () => (await row(7))?.headSha === sha));
    }
    expect(await listed(7)).toMatchObject({ state: 'waiting_for_slot' });
    expect(waits).toHaveLength(20);
  });

  it('gives a slot that frees to the oldest pull request waiting', async () => {
    repo.push('pr/9');
    await until('preview 9 waiting', async () => (await row(9))?.state === 'waiting_for_slot');
    repo.push('pr/3');
    await until('preview 3 waiting', async () => (await row(3))?.state === 'waiting_for_slot');
    // Pull request 1 closes (its branch deleted): 3 is the oldest waiting, before 7 and 9.
    git(repo.bare, ['branch', '-D', 'pr/1']);
    await until('preview 3 deploying', async () => (await row(3))?.state === 'deploying');
    expect([(await row(7))?.state, (await row(9))?.state]).toEqual(['waiting_for_slot', 'waiting_for_slot']);
    await until('preview 1 removed', async () => (await row(1)) === undefined);
  });

  it('reports a preview Live once its deployment serves, before it ends; Failed if it fails after all', async () => {
    const preview = (await row(3))!;
    const deployment = eq(deployments.id, preview.deploymentId!);
    const [queued] = await ctx.platform.db.select().from(deployments).where(deployment);
    // Post-deployment has recorded the URLs (the workspace serves); pruning older images is still to come.
    await ctx.platform.db
      .update(deployments)
      .set({ status: 'running', metadata: { ...queued!.metadata, service_urls: { app: 'http://x' } } })
      .where(deployment);
    await until('preview 3 live', async () => (await row(3))?.state === 'live');
    expect((await ctx.platform.db.select().from(deployments).where(deployment))[0]!.status).toBe('running');
    await ctx.platform.db
      .update(deployments)
      .set({ status: 'failed', error: 'The plan could not be saved' })
      .where(deployment);
    await until('preview 3 failed', async () => (await row(3))?.state === 'failed');
    expect((await row(3))?.cause).toBe('The plan could not be saved');
  });

  it('removes a preview whose pull request closes with previews turned off: local branch, GitHub delivery', async () => {
    expect((await settings({ enabled: false })).statusCode).toBe(200);
    // With previews off nothing new starts or moves on…
    const before = (await row(9))!.headSha;
    repo.push('pr/9');
    repo.push('pr/11');
    // …but a pull request that closes takes its preview with it.
    git(repo.bare, ['branch', '-D', 'pr/7']);
    await until('preview 7 removed', async () => (await row(7)) === undefined);
    expect((await row(9))!.headSha).toBe(before);
    expect(await row(11)).toBeUndefined();

    // A preview GitHub told of: its signed `closed` delivery removes it, previews off.
    await ctx.platform.db.insert(previews).values({
      parentId: parent.id,
      number: 40,
      title: 'From GitHub',
      branch: 'feature',
      headRef: 'refs/pull/40/head',
      headSha: 'a'.repeat(40),
      author: 'operator',
      state: 'live',
      pullRequestUrl: 'https://github.com/operator/lab/pull/40',
    });
    const delivered = await deliverGithubEvent(
      new TestClient(ctx.app),
      SECRET,
      'pull_request',
      githubPullRequestPayload({
        action: 'closed',
        owner: 'operator',
        repo: 'lab',
        number: 40,
        sha: 'a'.repeat(40),
      }),
    );
    expect(delivered.json()).toMatchObject({ status: 'queued' });
    await until('preview 40 removed', async () => (await row(40)) === undefined);
  });
});
