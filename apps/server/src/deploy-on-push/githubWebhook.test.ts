import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments, workspaces } from '../infra/db/schema.js';
import { startDeployment } from '../test/deployments.js';
import { createHostileWorld, type HostileWorld } from '../test/fixtures/hostileRepos.js';
import { deliverGithubEvent, githubPushPayload } from '../test/githubDeliveries.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, type TestContext } from '../test/testPlatform.js';
import type { PushDeployer } from './pushDeployer.js';

const SECRET = randomBytes(20).toString('hex');
const SHA = () => randomBytes(20).toString('hex');

/**
 * The webhook without the Docker Engine: no worker runs, so a deployment a push starts stays queued and the test
 * counts the rows. The deployer runs one check at a time (`check()`), with no quiet time.
 */
describe.each(DATABASES)('GitHub webhook for deploy on push (%s)', (database) => {
  let world: HostileWorld;
  let ctx: TestContext;
  let operator: TestClient;
  let github: TestClient;
  let deployer: PushDeployer;

  const push = (options: { branch?: string; deleted?: boolean; deliveryId?: string } = {}) =>
    deliverGithubEvent(
      github,
      SECRET,
      'push',
      githubPushPayload({ owner: 'operator', repo: 'shop', branch: 'main', after: SHA(), ...options }),
      { deliveryId: options.deliveryId },
    );
  const pushDeployments = () =>
    ctx.platform.db
      .select()
      .from(deployments)
      .where(and(eq(deployments.workspaceName, 'shop'), eq(deployments.workflowType, 'push')));
  /** Ends the queued push deployments (as a user's cancel does), so the next push may deploy. */
  async function cancelQueued() {
    for (const row of await pushDeployments()) {
      if (row.status === 'queued') {
        const cancelled = await operator.post(`/api/workflow/deployment/cancel/${row.sessionId}`);
        expect(cancelled.statusCode).toBe(200);
      }
    }
  }

  beforeAll(async () => {
    world = createHostileWorld();
    world.repo('shop', { Dockerfile: 'FROM busybox:1.36\n' });
    ctx = await createTestContext({
      database,
      env: { LOCAL_REPOS_DIR: world.root, GITHUB_WEBHOOK_SECRET: SECRET },
    });
    operator = await new TestClient(ctx.app).signIn('operator');
    github = new TestClient(ctx.app);
    // The workspace exists once a deployment was started; this one is cancelled before any worker takes it.
    const { sessionId } = await startDeployment(operator, { repo: 'shop' });
    expect((await operator.post(`/api/workflow/deployment/cancel/${sessionId}`)).statusCode).toBe(200);
    deployer = ctx.platform.deployOnPush.createDeployer({ coalesceMs: 0, watchLocalHeads: false });
  });
  afterAll(async () => {
    await ctx?.close();
    world?.cleanup();
  });

  it('keeps the switch per workspace, off until turned on, for its owner only', async () => {
    expect((await operator.get('/api/workspace-deploy-on-push/shop')).json()).toEqual({ enabled: false });
    expect((await operator.get('/api/workspace-deploy-on-push/nothing')).statusCode).toBe(404);
    const waiting = await new TestClient(ctx.app).signIn('waiting');
    expect((await waiting.put('/api/workspace-deploy-on-push/shop', { enabled: true })).statusCode).toBe(403);
    const on = await operator.put('/api/workspace-deploy-on-push/shop', { enabled: true });
    expect(on.json()).toEqual({ enabled: true });
    expect((await operator.get('/api/workspace-deploy-on-push/shop')).json()).toEqual({ enabled: true });
  });

  it('refuses a delivery whose signature is missing or wrong (401) and deploys nothing', async () => {
    const payload = githubPushPayload({ owner: 'operator', repo: 'shop', branch: 'main', after: SHA() });
    const unsigned = await deliverGithubEvent(github, SECRET, 'push', payload, { signature: null });
    const otherSecret = await deliverGithubEvent(github, 'not-the-secret-at-all', 'push', payload);
    const otherBody = await deliverGithubEvent(github, SECRET, 'push', payload, {
      signature: (await import('./webhookSignature.js')).signDelivery(SECRET, '{}'),
    });
    for (const refused of [unsigned, otherSecret, otherBody]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'The webhook signature does not match' });
    }
    const [workspace] = await ctx.platform.db.select().from(workspaces).where(eq(workspaces.name, 'shop'));
    expect(workspace?.pushPendingAt).toBeNull();
    expect(await deployer.check()).toBe(0);
    expect(await pushDeployments()).toEqual([]);
  });

  it('answers ping', async () => {
    const ping = await deliverGithubEvent(github, SECRET, 'ping', { zen: 'Design for failure.', hook_id: 1 });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toMatchObject({ status: 'ignored' });
  });

  it('acts on a delivery id once: a redelivery starts no second deployment', async () => {
    const deliveryId = randomUUID();
    const first = await push({ deliveryId });
    expect(first.json()).toEqual({ delivery_id: deliveryId, status: 'queued', workspaces: 1 });
    expect((await push({ deliveryId })).json()).toMatchObject({ status: 'replayed' });
    expect(await deployer.check()).toBe(1);
    await cancelQueued();
    // Redelivered after its deployment ended: still nothing.
    expect((await push({ deliveryId })).json()).toMatchObject({ status: 'replayed' });
    expect(await deployer.check()).toBe(0);
    const rows = await pushDeployments();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ workflowType: 'push', branch: 'main', owner: 'operator', repo: 'shop' });
    // The deployment belongs to the workspace's owner, under a session of its own.
    const me = (await operator.get('/api/user')).json() as { id: string };
    expect(rows[0]?.userId).toBe(me.id);
    expect(rows[0]?.sessionId).toMatch(/^push-/);
  });

  it('coalesces a burst of pushes into one deployment, and waits for a running one', async () => {
    for (let i = 0; i < 3; i++) expect((await push()).json()).toMatchObject({ status: 'queued' });
    expect(await deployer.check()).toBe(1);
    // Pushes while it is queued leave one mark, deployed once it has ended.
    for (let i = 0; i < 2; i++) await push();
    expect(await deployer.check()).toBe(0);
    await cancelQueued();
    expect(await deployer.check()).toBe(1);
    expect(await deployer.check()).toBe(0);
    await cancelQueued();
    expect(await pushDeployments()).toHaveLength(3);
  });

  it('ignores other branches, deleted branches, other repositories, and workspaces with the switch off', async () => {
    const before = (await pushDeployments()).length;
    expect((await push({ branch: 'dev' })).json()).toMatchObject({ status: 'ignored', workspaces: 0 });
    expect((await push({ deleted: true })).json()).toMatchObject({ status: 'ignored' });
    const elsewhere = githubPushPayload({ owner: 'someone', repo: 'shop', branch: 'main', after: SHA() });
    expect((await deliverGithubEvent(github, SECRET, 'push', elsewhere)).json()).toMatchObject({
      status: 'ignored',
    });
    expect((await operator.put('/api/workspace-deploy-on-push/shop', { enabled: false })).statusCode).toBe(
      200,
    );
    expect((await push()).json()).toMatchObject({ status: 'ignored', workspaces: 0 });
    expect(await deployer.check()).toBe(0);
    expect(await pushDeployments()).toHaveLength(before);
  });
});

describe('GitHub webhook without GITHUB_WEBHOOK_SECRET', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('answers 404 with a plain message, whatever is signed', async () => {
    const payload = githubPushPayload({ owner: 'operator', repo: 'shop', branch: 'main', after: SHA() });
    const response = await deliverGithubEvent(new TestClient(ctx.app), SECRET, 'push', payload);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: expect.stringContaining('GITHUB_WEBHOOK_SECRET') });
  });
});
