import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents, workspaces } from '../infra/db/schema.js';
import {
  newIdempotencyKey,
  PAYPAL_TEST_APP as PAYPAL,
  subscriptionRequest,
} from '../test/billingRequests.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import { type PaypalStandin, startPaypalStandin } from '../test/standins/paypal.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

const PUBLIC_URL = 'https://slipway.example.com';

const newKey = newIdempotencyKey;

describe.each(DATABASES)('billing in PayPal mode (%s)', (database) => {
  let paypal: PaypalStandin;
  let smtp: LoopbackSmtp;
  let ctx: TestContext;

  beforeAll(async () => {
    paypal = await startPaypalStandin(PAYPAL);
    smtp = await startLoopbackSmtp();
    ctx = await createTestContext({
      database,
      env: {
        PAYPAL_CLIENT_ID: PAYPAL.clientId,
        PAYPAL_CLIENT_SECRET: PAYPAL.clientSecret,
        PAYPAL_WEBHOOK_ID: PAYPAL.webhookId,
        PAYPAL_API_URL: paypal.url,
        PUBLIC_URL,
        SMTP_URL: smtp.url,
        // Engines for nodes 2–3 (never reached here): what lets a workspace ask for more than one node.
        CLUSTER_ENGINES:
          'unix:///nonexistent/n2.sock@10.250.201.12,unix:///nonexistent/n3.sock@10.250.201.13',
        CLUSTER_LOCAL_ADDRESS: '10.250.201.11',
      },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await paypal?.close();
    await smtp?.close();
  });

  const deliver = (delivery: { body: string; headers: Record<string, string> }) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/paypal',
      headers: delivery.headers,
      payload: delivery.body,
    });

  /** A new user with a PayPal subscription awaiting approval; answers our id and PayPal's. */
  async function pendingSubscription(client: TestClient, repo = `app-${randomBytes(3).toString('hex')}`) {
    const response = await client.post(`/api/subscriptions/${repo}`, subscriptionRequest(repo, newKey()));
    expect(response.statusCode).toBe(200);
    const created = response.json() as { id: string; hosted_checkout_url: string | null; status: string };
    const remote = [...paypal.subscriptions.values()].find((entry) => entry.custom_id === created.id);
    if (!remote) throw new Error('PayPal never saw the subscription');
    return { created, paypalId: remote.id, repo };
  }

  const activation = (paypalId: string, id = `WH-${randomBytes(6).toString('hex')}`) =>
    paypal.signWebhook({
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: 'subscription',
      event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
      summary: 'Subscription activated',
      resource: {
        id: paypalId,
        status: 'ACTIVE',
        billing_info: { next_billing_time: '2031-02-01T10:00:00Z' },
      },
    });

  const saleCompleted = (paypalId: string, saleId: string) =>
    paypal.signWebhook({
      id: `WH-${randomBytes(6).toString('hex')}`,
      event_version: '1.0',
      create_time: '2031-01-01T10:00:00Z',
      resource_type: 'sale',
      event_type: 'PAYMENT.SALE.COMPLETED',
      resource: {
        id: saleId,
        state: 'completed',
        amount: { total: '12.00', currency: 'USD', details: { subtotal: '12.00' } },
        billing_agreement_id: paypalId,
        create_time: '2031-01-01T10:00:00Z',
      },
    });

  it('creates a subscription at PayPal and answers its approval link; product and plan are created once', async () => {
    const { client } = await signInNewUser(ctx);
    const first = await pendingSubscription(client);
    expect(first.created.status).toBe('pending');
    expect(first.created.hosted_checkout_url).toMatch(/^https:\/\/www\.sandbox\.paypal\.com\/.*ba_token=/);
    const remote = paypal.subscriptions.get(first.paypalId)!;
    expect(remote.application_context?.return_url).toBe(
      `${PUBLIC_URL}/payment-success?subscription_id=${first.created.id}`,
    );
    expect(remote.application_context?.cancel_url).toBe(`${PUBLIC_URL}/billing/octo/${first.repo}`);
    const plan = paypal.plans.get(remote.plan_id)!;
    expect(plan).toMatchObject({
      billing_cycles: [{ pricing_scheme: { fixed_price: { value: '12.00', currency_code: 'USD' } } }],
    });

    await pendingSubscription(client);
    const pro = await client.post(
      '/api/subscriptions/big',
      subscriptionRequest('big', newKey(), 'Standard_B2als_v2'),
    );
    expect(pro.statusCode).toBe(200);
    expect(paypal.products.size).toBe(1);
    expect(paypal.plans.size).toBe(2);
    expect(paypal.count('POST', /^\/v1\/oauth2\/token$/)).toBe(1);
    expect(
      paypal.calls.filter((call) => call.path === '/v1/billing/subscriptions').every((c) => c.requestId),
    ).toBe(true);

    const list = (await client.get('/api/subscriptions')).json() as { plan_code: string; status: string }[];
    expect(list.map((entry) => entry.plan_code).sort()).toEqual(['BASIC_1GB', 'BASIC_1GB', 'PRO_4GB']);
    const detail = await client.get(`/api/subscriptions/${first.created.id}`);
    expect(detail.json()).toMatchObject({
      status: 'pending',
      plan: { name: '1 GB RAM VM (2 vCPUs, 1 GB RAM)' },
    });
  });

  it('pays for each node: PayPal quantity, the price times the nodes, and as many nodes paid as the workspace runs on', async () => {
    const { client, userId } = await signInNewUser(ctx);
    const repo = `nodes-${randomBytes(3).toString('hex')}`;
    const response = await client.post(
      `/api/subscriptions/${repo}`,
      subscriptionRequest(repo, newKey(), 'Standard_B2ats_v2', 3),
    );
    expect(response.statusCode).toBe(200);
    const created = response.json() as { id: string };
    const remote = [...paypal.subscriptions.values()].find((entry) => entry.custom_id === created.id)!;
    // PayPal's documented shapes: the plan takes a quantity, the subscription names it (as a string).
    expect(remote.quantity).toBe('3');
    expect(paypal.plans.get(remote.plan_id)).toMatchObject({ quantity_supported: true });
    expect((await client.get(`/api/subscriptions/${created.id}`)).json()).toMatchObject({
      nodes: 3,
      monthly_price_usd: 36,
      plan: { price_usd: 12 },
    });
    expect((await client.get('/api/subscriptions')).json()).toMatchObject([{ nodes: 3 }]);
    await deliver(activation(remote.id));

    await expect(
      ctx.platform.billing.assertCanDeploy(userId, repo, 'Standard_B2ats_v2', null, 3),
    ).resolves.toEqual({ subscriptionId: created.id });
    await expect(
      ctx.platform.billing.assertCanDeploy(userId, repo, 'Standard_B2ats_v2', created.id, 4),
    ).rejects.toMatchObject({
      code: 'payment_required',
      message: `Deploying ${repo} on 4 nodes of the 1 GB RAM VM (2 vCPUs, 1 GB RAM) needs an active subscription. The subscription pays for 3 nodes. Complete the PayPal checkout, then deploy again.`,
    });

    // The Nodes setting asks billing before it stores more nodes than are paid for.
    const [workspace] = await ctx.platform.db
      .insert(workspaces)
      .values({
        userId,
        name: repo,
        repoOwner: 'octo',
        repoName: repo,
        repoUrl: `https://github.com/octo/${repo}`,
        branch: 'main',
        vmSize: 'Standard_B2ats_v2',
      })
      .returning();
    expect((await client.put(`/api/workspace-nodes/${repo}`, { nodes: 3 })).statusCode).toBe(200);
    expect((await client.put(`/api/workspace-nodes/${repo}`, { nodes: 1 })).statusCode).toBe(200);
    const other = `more-${randomBytes(3).toString('hex')}`;
    await ctx.platform.db
      .insert(workspaces)
      .values({ ...workspace!, id: undefined, name: other, repoName: other });
    const unpaid = await client.put(`/api/workspace-nodes/${other}`, { nodes: 2 });
    expect(unpaid.statusCode).toBe(402);
    expect(unpaid.json().error).toMatch(
      /^Deploying more-\w+ on 2 nodes of the 1 GB RAM VM .* needs an active subscription/,
    );

    // More nodes than the live subscription pays for: PayPal would charge two subscriptions; one is cancelled first.
    const grow = await client.post(
      `/api/subscriptions/${repo}`,
      subscriptionRequest(repo, newKey(), 'Standard_B2ats_v2', 5),
    );
    expect(grow.statusCode).toBe(409);
    expect(grow.json().error).toBe(
      `The subscription of ${repo} pays for 3 nodes. Cancel it under Subscriptions, then subscribe again for 5 nodes.`,
    );
  });

  it('creates one subscription for the same idempotency key, and refuses the key for another request', async () => {
    const { client } = await signInNewUser(ctx);
    const key = newKey();
    const before = paypal.count('POST', /^\/v1\/billing\/subscriptions$/);
    const first = await client.post('/api/subscriptions/shop', subscriptionRequest('shop', key));
    const second = await client.post('/api/subscriptions/shop', subscriptionRequest('shop', key));
    expect(second.json()).toEqual(first.json());
    expect(paypal.count('POST', /^\/v1\/billing\/subscriptions$/)).toBe(before + 1);
    expect((await client.get('/api/subscriptions')).json()).toHaveLength(1);

    const other = await client.post(
      '/api/subscriptions/shop',
      subscriptionRequest('shop', key, 'Standard_B2als_v2'),
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatch(/idempotency key was already used/);
  });

  it('activates by webhook, and only then lets the workspace deploy', async () => {
    const { client, userId } = await signInNewUser(ctx);
    const { created, paypalId, repo } = await pendingSubscription(client);
    await expect(
      ctx.platform.billing.assertCanDeploy(userId, repo, 'Standard_B2ats_v2'),
    ).rejects.toMatchObject({
      code: 'payment_required',
      status: 402,
    });

    const response = await deliver(activation(paypalId));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'processed', result: 'applied' });
    const detail = (await client.get(`/api/subscriptions/${created.id}`)).json();
    expect(detail).toMatchObject({
      status: 'active',
      next_renewal: '2031-02-01T10:00:00.000Z',
      hosted_checkout_url: null,
    });

    await expect(ctx.platform.billing.assertCanDeploy(userId, repo, 'Standard_B2ats_v2')).resolves.toEqual({
      subscriptionId: created.id,
    });
    // The 4 GB plan is another plan: the 1 GB subscription does not pay for it.
    await expect(
      ctx.platform.billing.assertCanDeploy(userId, repo, 'Standard_B2als_v2'),
    ).rejects.toMatchObject({
      code: 'payment_required',
    });
    // A second checkout for a workspace already paid for returns the live subscription, no new PayPal one.
    const again = await client.post(`/api/subscriptions/${repo}`, subscriptionRequest(repo, newKey()));
    expect(again.json()).toMatchObject({ id: created.id, status: 'active', hosted_checkout_url: null });
  });

  it('asks PayPal when the buyer is back before the webhook', async () => {
    const { client, userId } = await signInNewUser(ctx);
    const { created, paypalId, repo } = await pendingSubscription(client);
    paypal.approve(paypalId);
    await expect(
      ctx.platform.billing.assertCanDeploy(userId, repo, 'Standard_B2ats_v2', paypalId),
    ).resolves.toEqual({ subscriptionId: created.id });
    expect((await client.get(`/api/subscriptions/${paypalId}`)).json()).toMatchObject({ status: 'active' });
  });

  it('records a paid invoice by webhook, once even when the delivery is replayed', async () => {
    const { client } = await signInNewUser(ctx);
    const { created, paypalId } = await pendingSubscription(client);
    const delivery = saleCompleted(paypalId, `SALE-${randomBytes(4).toString('hex')}`);
    expect((await deliver(delivery)).json()).toMatchObject({ status: 'processed' });
    const replay = await deliver(delivery);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ status: 'replayed' });

    const answer = (await client.get(`/api/subscriptions/${created.id}/invoices`)).json();
    expect(answer).toMatchObject({ is_trial: false, subscription_status: 'active', trial_end_date: null });
    expect(answer.invoices).toHaveLength(1);
    expect(answer.invoices[0]).toMatchObject({
      amount_usd: 12,
      status: 'paid',
      period_start: '2031-01-01T10:00:00.000Z',
      period_end: '2031-02-01T10:00:00.000Z',
      paid_at: '2031-01-01T10:00:00.000Z',
    });
    const all = (await client.get('/api/invoices')).json() as { invoice_id: string }[];
    expect(all.map((invoice) => invoice.invoice_id)).toEqual([answer.invoices[0].invoice_id]);
  });

  it('refuses a forged webhook and changes nothing', async () => {
    const { client } = await signInNewUser(ctx);
    const { created, paypalId } = await pendingSubscription(client);
    const genuine = activation(paypalId);
    // Same headers, another body: the signature no longer matches.
    const tampered = { ...genuine, body: genuine.body.replace('2031-02-01', '2099-02-01') };
    const forged = { ...genuine, headers: { ...genuine.headers, 'paypal-transmission-sig': 'Zm9yZ2Vk' } };
    const headerless = { body: genuine.body, headers: { 'content-type': 'application/json' } };
    for (const attempt of [tampered, forged, headerless]) {
      const response = await deliver(attempt);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'webhook_unverified' });
    }
    expect((await client.get(`/api/subscriptions/${created.id}`)).json()).toMatchObject({
      status: 'pending',
    });
    const eventId = JSON.parse(genuine.body).id as string;
    const recorded = await ctx.platform.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, `paypal:${eventId}`));
    expect(recorded).toHaveLength(0);
    // The genuine delivery still works afterwards: refusals consumed nothing.
    expect((await deliver(genuine)).json()).toMatchObject({ status: 'processed' });
  });

  it('ignores a replayed event: it does not undo what came after it', async () => {
    const { client } = await signInNewUser(ctx);
    const { created, paypalId } = await pendingSubscription(client);
    const activated = activation(paypalId);
    await deliver(activated);
    const failed = paypal.signWebhook({
      id: `WH-${randomBytes(6).toString('hex')}`,
      event_type: 'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
      create_time: '2031-02-01T10:00:00Z',
      resource: {
        id: paypalId,
        status: 'ACTIVE',
        billing_info: {
          last_failed_payment: {
            amount: { currency_code: 'USD', value: '12.00' },
            time: '2031-02-01T10:00:00Z',
          },
        },
      },
    });
    expect((await deliver(failed)).json()).toMatchObject({ status: 'processed' });
    const replay = await deliver(activated);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ status: 'replayed' });
    const answer = (await client.get(`/api/subscriptions/${created.id}/invoices`)).json();
    expect(answer.subscription_status).toBe('past_due');
    expect(answer.invoices).toMatchObject([{ status: 'failed', amount_usd: 12, paid_at: null }]);
  });

  it('cancels once at PayPal however often it is asked, and only from trialing or active', async () => {
    const { client } = await signInNewUser(ctx);
    const { created, paypalId } = await pendingSubscription(client);
    const early = await client.post(`/api/subscriptions/${created.id}/cancel`, { cancel_immediately: true });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe(
      'Only trialing or active subscriptions can be cancelled; this one is pending.',
    );

    await deliver(activation(paypalId));
    paypal.approve(paypalId);
    const request = { cancel_immediately: true, reason: 'Moving on', idempotency_key: newKey() };
    const first = await client.post(`/api/subscriptions/${created.id}/cancel`, request);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, status: 'cancelled' });
    const second = await client.post(`/api/subscriptions/${created.id}/cancel`, request);
    expect(second.json()).toEqual(first.json());
    const other = await client.post(`/api/subscriptions/${created.id}/cancel`, {
      ...request,
      idempotency_key: newKey(),
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('This subscription is already cancelled.');

    const cancels = paypal.calls.filter(
      (call) => call.path === `/v1/billing/subscriptions/${paypalId}/cancel`,
    );
    expect(cancels).toHaveLength(1);
    expect(paypal.subscriptions.get(paypalId)?.status).toBe('CANCELLED');
    // PayPal's own CANCELLED notification afterwards changes nothing more.
    const notice = paypal.signWebhook({
      id: `WH-${randomBytes(6).toString('hex')}`,
      event_type: 'BILLING.SUBSCRIPTION.CANCELLED',
      resource: { id: paypalId, status: 'CANCELLED' },
    });
    expect((await deliver(notice)).statusCode).toBe(200);
    expect((await client.get(`/api/subscriptions/${created.id}`)).json()).toMatchObject({
      status: 'cancelled',
    });
  });

  it("answers 404 for another user's subscription on every call", async () => {
    const owner = await signInNewUser(ctx);
    const { created, paypalId } = await pendingSubscription(owner.client);
    const stranger = await signInNewUser(ctx);
    for (const id of [created.id, paypalId]) {
      expect((await stranger.client.get(`/api/subscriptions/${id}`)).statusCode).toBe(404);
      expect((await stranger.client.get(`/api/subscriptions/${id}/invoices`)).statusCode).toBe(404);
      expect((await stranger.client.post(`/api/subscriptions/${id}/cancel`, {})).statusCode).toBe(404);
    }
    expect((await stranger.client.get('/api/subscriptions')).json()).toEqual([]);
    await expect(
      ctx.platform.billing.assertCanDeploy(stranger.userId, 'x', 'Standard_B2ats_v2', created.id),
    ).rejects.toMatchObject({ code: 'payment_required' });
  });

  it('keeps billing to whitelisted users', async () => {
    const { client } = await signInNewUser(ctx, { whitelisted: false });
    const response = await client.post('/api/subscriptions/app', subscriptionRequest('app', newKey()));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ redirect: '/waiting-list' });
    expect((await client.get('/api/invoices')).statusCode).toBe(403);
  });

  it('finds workspaces lapsed beyond the grace period once, and emails their owner when stopped', async () => {
    const { client, userId } = await signInNewUser(ctx, { email: 'owner@example.com' });
    const { created, paypalId, repo } = await pendingSubscription(client);
    await ctx.platform.db.insert(workspaces).values({
      userId,
      name: repo,
      repoOwner: 'octo',
      repoName: repo,
      repoUrl: `https://github.com/octo/${repo}`,
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
    });
    await deliver(activation(paypalId));
    paypal.approve(paypalId);
    await client.post(`/api/subscriptions/${created.id}/cancel`, {
      cancel_immediately: true,
      idempotency_key: newKey(),
    });

    const { billing } = ctx.platform;
    const mine = <T extends { subscriptionId: string }>(found: T[]) =>
      found.filter((lapse) => lapse.subscriptionId === created.id);
    expect(mine(await billing.findLapsedWorkspaces(7))).toEqual([]);
    const later = new Date(Date.now() + 8 * 24 * 3600 * 1000);
    const [lapse] = mine(await billing.findLapsedWorkspaces(7, later));
    expect(lapse).toMatchObject({ userId, workspaceName: repo, status: 'cancelled' });

    expect(await billing.confirmWorkspaceStopped(lapse!)).toEqual({ sent: true });
    const mail = await smtp.waitFor(() => true);
    expect(mail?.to).toEqual(['owner@example.com']);
    expect(mail?.subject).toBe(`Slipway: workspace ${repo} has been stopped`);
    expect(mail?.raw).toContain('subscription was cancelled');
    expect(mine(await billing.findLapsedWorkspaces(7, later))).toEqual([]);
  });
});
