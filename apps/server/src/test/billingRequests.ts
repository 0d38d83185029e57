import { randomBytes } from 'node:crypto';

/** Test data shared by the billing suites: a subscription request as the billing screen sends it. */
export function subscriptionRequest(repo: string, key: string, vmSize = 'Standard_B2ats_v2', nodes?: number) {
  return {
    plan_code: vmSize === 'Standard_B2als_v2' ? 'PRO_4GB' : 'BASIC_1GB',
    idempotency_key: key,
    metadata: {
      repo_owner: 'octo',
      repo_name: repo,
      branch: 'main',
      vm_size: vmSize,
      ...(nodes === undefined ? {} : { nodes }),
    },
  };
}

/** Built like the web app's keys: time plus a random part. */
export const newIdempotencyKey = () => `${Date.now()}-${randomBytes(6).toString('hex')}`;

/** The PayPal app the stand-in knows: its client credentials and webhook id. */
export const PAYPAL_TEST_APP = {
  clientId: 'slipway-client',
  clientSecret: 'slipway-secret',
  webhookId: 'WH-2WR32451HC0233532',
};
