import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newIdempotencyKey, subscriptionRequest } from '../test/billingRequests.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

const DAY_MS = 24 * 3600 * 1000;
const newKey = newIdempotencyKey;

describe.each(DATABASES)('billing in free-beta mode (%s)', (database) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ database });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('says it is in free beta, with the plans from the VM size catalogue', async () => {
    const { client } = await signInNewUser(ctx);
    const answer = (await client.get('/api/billing/plans')).json();
    expect(answer).toMatchObject({
      mode: 'free-beta',
      currency: 'USD',
      plans: [
        { plan_code: 'BASIC_1GB', vm_size: 'Standard_B2ats_v2', price_usd: 12 },
        { plan_code: 'PRO_4GB', vm_size: 'Standard_B2als_v2', price_usd: 30 },
      ],
    });
  });

  it('starts a trialing subscription with no checkout, and shows the trial on its invoices', async () => {
    const { client, userId } = await signInNewUser(ctx);
    const started = Date.now();
    const response = await client.post(
      '/api/subscriptions/web-app',
      subscriptionRequest('web-app', newKey()),
    );
    expect(response.statusCode).toBe(200);
    const created = response.json();
    expect(created).toMatchObject({ status: 'trialing', hosted_checkout_url: null });
    expect(created.subscription_id).toBe(created.id);

    const [listed] = (await client.get('/api/subscriptions')).json();
    expect(listed).toMatchObject({
      subscription_id: created.id,
      plan_code: 'BASIC_1GB',
      plan_name: '1 GB RAM VM (2 vCPUs, 1 GB RAM)',
      status: 'trialing',
      vm_id: null,
      next_renewal: null,
    });
    const trialEnd = new Date(listed.trial_end).getTime();
    expect(trialEnd - started).toBeGreaterThanOrEqual(30 * DAY_MS - 1000);
    expect(trialEnd - started).toBeLessThan(30 * DAY_MS + 60_000);

    const detail = (await client.get(`/api/subscriptions/${created.id}`)).json();
    expect(detail).toMatchObject({
      plan: { name: '1 GB RAM VM (2 vCPUs, 1 GB RAM)', price_usd: 12 },
      workspace_name: 'web-app',
      branch: 'main',
      provider: 'free-beta',
    });

    const invoices = (await client.get(`/api/subscriptions/${created.id}/invoices`)).json();
    expect(invoices).toEqual({
      is_trial: true,
      message: expect.stringContaining('free beta'),
      trial_end_date: listed.trial_end,
      subscription_status: 'trialing',
      invoices: [],
    });
    expect((await client.get('/api/invoices')).json()).toEqual([]);
    // Free beta asks nothing of a deployment.
    await expect(
      ctx.platform.billing.assertCanDeploy(userId, 'never-subscribed', 'Standard_B2als_v2'),
    ).resolves.toEqual({ subscriptionId: null });
    await expect(
      ctx.platform.billing.assertCanDeploy(userId, 'web-app', 'Standard_B2ats_v2', created.id),
    ).resolves.toEqual({ subscriptionId: created.id });
  });

  it('cancels a trial; a cancelled subscription cannot be cancelled again with another key', async () => {
    const { client } = await signInNewUser(ctx);
    const { id } = (await client.post('/api/subscriptions/api', subscriptionRequest('api', newKey()))).json();
    const cancel = { cancel_immediately: true, reason: 'done', idempotency_key: newKey() };
    const first = await client.post(`/api/subscriptions/${id}/cancel`, cancel);
    expect(first.json()).toMatchObject({ status: 'cancelled', subscription_id: id });
    expect((await client.post(`/api/subscriptions/${id}/cancel`, cancel)).statusCode).toBe(200);
    const again = await client.post(`/api/subscriptions/${id}/cancel`, {
      ...cancel,
      idempotency_key: newKey(),
    });
    expect(again.statusCode).toBe(409);
    const invoices = (await client.get(`/api/subscriptions/${id}/invoices`)).json();
    expect(invoices).toMatchObject({ is_trial: false, subscription_status: 'cancelled' });
    // Free beta never stops workspaces for billing.
    expect(await ctx.platform.billing.findLapsedWorkspaces(0, new Date(Date.now() + 365 * DAY_MS))).toEqual(
      [],
    );
  });

  it('refuses requests that do not make sense, with a message', async () => {
    const { client } = await signInNewUser(ctx);
    const mismatch = await client.post('/api/subscriptions/app', {
      ...subscriptionRequest('app', newKey()),
      plan_code: 'PRO_4GB',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toMatch(/does not match the VM size/);
    const badSize = await client.post(
      '/api/subscriptions/app',
      subscriptionRequest('app', newKey(), 'Standard_X'),
    );
    expect(badSize.statusCode).toBe(400);
    expect(badSize.json().error).toMatch(/Unknown VM size/);
    for (const name of ['.', 'a%3Brm%20-rf', '-x%24(id)']) {
      const badName = await client.post(`/api/subscriptions/${name}`, subscriptionRequest('app', newKey()));
      expect(badName.statusCode).toBe(400);
      expect(badName.json().error).toBe('Invalid repository name');
    }
    const noMetadata = await client.post('/api/subscriptions/app', {
      plan_code: 'BASIC_1GB',
      idempotency_key: newKey(),
    });
    expect(noMetadata.statusCode).toBe(400);
    expect(noMetadata.json().error).toBe('Missing deployment configuration');
    expect((await client.get('/api/subscriptions')).json()).toEqual([]);
    expect((await client.get('/api/subscriptions/does-not-exist')).statusCode).toBe(404);
  });

  it('refuses PayPal webhooks: free beta has nothing to verify them with', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/paypal',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ id: 'WH-1', event_type: 'BILLING.SUBSCRIPTION.ACTIVATED', resource: {} }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'webhook_unverified' });
  });
});
