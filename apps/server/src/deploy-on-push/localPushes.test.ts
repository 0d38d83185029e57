import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { workspaces } from '../infra/db/schema.js';
import { createPushedRepository, refStateOf, within } from '../test/refMoves.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { PushDeployer } from './pushDeployer.js';

const HOUR = 60 * 60_000;

/**
 * Issue 39: deploy on push in local mode learns of a push from the same ref watch as previews (watchLocalRefs):
 * every one of 20 pushes — the branch's ref loose, packed, or after `git gc` — is seen within 2 s, not by the
 * 30 s full read. The deployer runs on its own leased tick; its quiet time is an hour, so nothing deploys.
 */
const repo = createPushedRepository('operator', 'shop');
let ctx: TestContext;
let deployer: PushDeployer;
let workspaceId: string;

beforeAll(async () => {
  ctx = await createTestContext({ env: { LOCAL_REPOS_DIR: repo.root } });
  const { userId } = await signInNewUser(ctx);
  workspaceId = (await insertWorkspace(ctx.platform, { userId, name: 'shop' })).id;
  await ctx.platform.db
    .update(workspaces)
    .set({ repoOwner: 'operator', repoName: 'shop', branch: 'main', deployOnPush: true })
    .where(eq(workspaces.id, workspaceId));
  deployer = ctx.platform.deployOnPush.createDeployer({ coalesceMs: HOUR });
  deployer.start();
});
afterAll(async () => {
  await deployer?.stop();
  await ctx?.close();
  repo.cleanup();
});

it('sees each of 20 pushes to the branch within 2 s: loose, packed and after git gc', async () => {
  const seen = async () =>
    (await ctx.platform.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]!;
  const waits: number[] = [];
  for (let i = 0; i < 20; i++) {
    repo.arrange(refStateOf(i));
    const sha = repo.push('main');
    waits.push(await within(2000, async () => (await seen()).pushSeenSha === sha));
  }
  expect(waits).toHaveLength(20);
  // Marked for a deployment each time (one follows once the branch has been quiet for the quiet time).
  expect((await seen()).pushPendingAt).not.toBeNull();
});
