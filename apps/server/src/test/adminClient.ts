import { TestClient } from './testClient.js';
import type { TestContext } from './testPlatform.js';

/** A browser that signed in to the admin panel with the admin password (test helper). */
export async function signInAdmin(ctx: TestContext): Promise<TestClient> {
  const client = new TestClient(ctx.app);
  await client.get('/api/admin/session-status'); // primes the XSRF cookie, as the panel's first call does
  const response = await client.post('/api/admin/auth', {
    adminPassword: ctx.platform.secrets.adminPassword,
  });
  if (response.statusCode !== 200)
    throw new Error(`admin sign-in failed: ${response.statusCode} ${response.body}`);
  return client;
}
