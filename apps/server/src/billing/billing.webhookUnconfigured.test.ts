import { describe, expect, it } from 'vitest';
import { webhookEvents } from '../infra/db/schema.js';
import { PAYPAL_TEST_APP as PAYPAL } from '../test/billingRequests.js';
import { startPaypalStandin } from '../test/standins/paypal.js';
import { createTestContext } from '../test/testPlatform.js';

describe('PayPal webhooks without PAYPAL_WEBHOOK_ID', () => {
  it('fail closed: even a genuinely signed event is refused and changes nothing', async () => {
    const paypal = await startPaypalStandin(PAYPAL);
    const ctx = await createTestContext({
      env: {
        PAYPAL_CLIENT_ID: PAYPAL.clientId,
        PAYPAL_CLIENT_SECRET: PAYPAL.clientSecret,
        PAYPAL_API_URL: paypal.url,
      },
    });
    try {
      const delivery = paypal.signWebhook({
        id: 'WH-1',
        event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
        resource: { id: 'I-1' },
      });
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/webhooks/paypal',
        headers: delivery.headers,
        payload: delivery.body,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/PAYPAL_WEBHOOK_ID is unset/);
      expect(paypal.count('POST', /verify-webhook-signature/)).toBe(0);
      expect(await ctx.platform.db.select().from(webhookEvents)).toEqual([]);
    } finally {
      await ctx.close();
      await paypal.close();
    }
  });
});
