import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, kvEntries } from '../infra/db/schema.js';
import { signInAdmin } from '../test/adminClient.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

describe.each(DATABASES)('admin: impersonation (%s)', (database) => {
  let ctx: TestContext;
  let admin: TestClient;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    admin = await signInAdmin(ctx);
  });
  afterAll(() => ctx.close());

  it('issues a token that signs a browser in as the user once, recorded in the audit log', async () => {
    const { userId } = await signInNewUser(ctx, { login: 'grace', whitelisted: true });
    const response = await admin.post(`/api/admin/impersonate/${userId}`);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      user: { login: 'grace', first_name: 'grace', last_name: 'Test' },
      impersonation_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_in: 900,
    });
    expect(result.impersonation_url).toContain(`/api/auth/impersonate?token=${result.impersonation_token}`);

    // The stored token expires when the answer says it does.
    const [stored] = await ctx.platform.db
      .select()
      .from(kvEntries)
      .where(eq(kvEntries.key, `impersonation:${result.impersonation_token}`));
    const secondsLeft = (stored!.expiresAt!.getTime() - Date.now()) / 1000;
    expect(secondsLeft).toBeGreaterThan(890);
    expect(secondsLeft).toBeLessThanOrEqual(900);

    const browser = new TestClient(ctx.app);
    const signIn = await browser.get(`/api/auth/impersonate?token=${result.impersonation_token}`);
    expect(signIn.statusCode).toBe(302);
    expect(signIn.headers.location).toBe('/');
    const me = await browser.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().login).toBe('grace');
    const session = await ctx.platform.sessions.get(browser.cookies.get('slipway_session')!);
    expect(session?.data.impersonatedBy).toBe('admin');

    const again = await new TestClient(ctx.app).get(
      `/api/auth/impersonate?token=${result.impersonation_token}`,
    );
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe(
      'This impersonation token has expired or was already used. Ask for a new one in the admin panel.',
    );

    const actions = await ctx.platform.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, userId))
      .orderBy(desc(auditLog.id));
    expect(actions.map((a) => a.action)).toEqual([
      'impersonation.session_started',
      'impersonation.token_issued',
    ]);
    expect(actions.every((a) => a.actor === 'admin')).toBe(true);
  });

  it('refuses an expired token', async () => {
    const { userId } = await signInNewUser(ctx);
    const { impersonation_token: token } = (await admin.post(`/api/admin/impersonate/${userId}`)).json();
    await ctx.platform.kv.expire('tokens', `impersonation:${token}`, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const browser = new TestClient(ctx.app);
    const response = await browser.get(`/api/auth/impersonate?token=${token}`);
    expect(response.statusCode).toBe(401);
    expect((await browser.get('/api/user')).statusCode).toBe(401);
  });

  it('answers 404 for an unknown user and 400/401 for a missing or forged token', async () => {
    expect((await admin.post('/api/admin/impersonate/00000000-0000-4000-8000-000000000000')).statusCode).toBe(
      404,
    );
    expect((await new TestClient(ctx.app).get('/api/auth/impersonate')).statusCode).toBe(400);
    const forged = await new TestClient(ctx.app).get(`/api/auth/impersonate?token=${'a'.repeat(43)}`);
    expect(forged.statusCode).toBe(401);
  });
});
