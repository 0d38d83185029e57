import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInAdmin } from '../test/adminClient.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

const SOME_ID = '00000000-0000-4000-8000-000000000000';
/** Every route behind the admin session. */
const PROTECTED: [method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown][] = [
  ['GET', '/api/admin/stats'],
  ['GET', '/api/admin/users'],
  ['GET', '/api/admin/users/waiting-list'],
  ['GET', '/api/admin/users/whitelisted'],
  ['POST', `/api/admin/users/${SOME_ID}/whitelist`],
  ['DELETE', `/api/admin/users/${SOME_ID}/whitelist`],
  ['POST', '/api/admin/users/bulk-whitelist', [SOME_ID]],
  ['GET', '/api/admin/whitelist/emails'],
  ['POST', '/api/admin/whitelist/emails', { email: 'a@example.com', notes: null, added_by: 'admin' }],
  ['DELETE', '/api/admin/whitelist/emails/a%40example.com'],
  ['GET', '/api/admin/vms'],
  ['DELETE', '/api/admin/vms/some-vm'],
  ['GET', '/api/admin/workspaces'],
  ['GET', '/api/admin/logs'],
  ['GET', '/api/admin/logs/backend?lines=100'],
  ['GET', '/api/admin/logs/frontend?lines=100'],
  ['GET', '/api/admin/redis/info'],
  ['POST', '/api/admin/redis/flush', { type: 'all' }],
  ['POST', `/api/admin/impersonate/${SOME_ID}`],
  ['GET', '/api/admin/cadvisor/api/v1.3/machine'],
  ['GET', '/api/admin/cadvisor/api/v1.3/containers'],
];

describe.each(DATABASES)('admin access (%s)', (database) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ database });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.platform.kv.flush('ratelimit');
  });

  it('refuses every admin route without the admin session, even to a signed-in user', async () => {
    const visitor = new TestClient(ctx.app);
    await visitor.get('/api/admin/session-status');
    const { client: user } = await signInNewUser(ctx, { whitelisted: true });
    for (const client of [visitor, user]) {
      for (const [method, url, body] of PROTECTED) {
        const response = await client.request(method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(401);
        expect(response.json().error).toBe('Admin session required. Sign in to the admin panel.');
      }
    }
    // Nothing was changed by those attempts.
    expect((await ctx.platform.admin.users.listEmails()).total).toBe(0);
  });

  it('refuses a wrong password with the spec message and rate-limits the sixth attempt', async () => {
    const client = new TestClient(ctx.app);
    await client.get('/api/admin/session-status');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await client.post('/api/admin/auth', { adminPassword: `wrong-${attempt}` });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false, error: 'Invalid admin password' });
    }
    // Even the right password waits out the cool-down.
    const sixth = await client.post('/api/admin/auth', { adminPassword: ctx.platform.secrets.adminPassword });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toBe('Too many attempts. Wait a minute and try again.');
    expect((await client.get('/api/admin/session-status')).json()).toEqual({ isAdmin: false });
  });

  it('keeps the limit when a guesser names a new address per request (X-Forwarded-For from no trusted proxy)', async () => {
    const client = new TestClient(ctx.app);
    await client.get('/api/admin/session-status');
    const guess = (attempt: number) =>
      client.request(
        'POST',
        '/api/admin/auth',
        { adminPassword: `spoofed-${attempt}` },
        { 'X-Forwarded-For': `203.0.113.${attempt}` },
      );
    for (let attempt = 1; attempt <= 5; attempt++) expect((await guess(attempt)).statusCode).toBe(401);
    expect((await guess(6)).statusCode).toBe(429);
  });

  it('counts failed sign-ins only: successes neither count nor let a guesser past the limit', async () => {
    const client = new TestClient(ctx.app);
    await client.get('/api/admin/session-status');
    const password = ctx.platform.secrets.adminPassword;
    // More successes than the limit allows attempts: none is refused.
    for (let attempt = 1; attempt <= 7; attempt++) {
      expect((await client.post('/api/admin/auth', { adminPassword: password })).statusCode).toBe(200);
    }
    // The failures still count from zero, up to the limit; the next attempt waits, right or wrong.
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await client.post('/api/admin/auth', { adminPassword: `wrong-${attempt}` })).statusCode).toBe(
        401,
      );
    }
    expect((await client.post('/api/admin/auth', { adminPassword: 'wrong-6' })).statusCode).toBe(429);
    expect((await client.post('/api/admin/auth', { adminPassword: password })).statusCode).toBe(429);
  });

  it('starts a separate admin session with a fresh id each login, and logout ends it', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.get('/api/admin/session-status')).json()).toEqual({ isAdmin: false });
    const login = await client.post('/api/admin/auth', { adminPassword: ctx.platform.secrets.adminPassword });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ success: true });
    const cookie = login.cookies.find((c) => c.name === 'slipway_admin');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const firstId = cookie!.value;
    expect(await ctx.platform.kv.get('sessions', `admin:${firstId}`)).toBeTruthy();
    expect((await client.get('/api/admin/session-status')).json()).toEqual({ isAdmin: true });
    expect((await client.get('/api/admin/stats')).statusCode).toBe(200);
    // The admin session is not a user session.
    expect((await client.get('/api/user')).statusCode).toBe(401);

    await client.post('/api/admin/auth', { adminPassword: ctx.platform.secrets.adminPassword });
    const secondId = client.cookies.get('slipway_admin');
    expect(secondId).not.toBe(firstId);
    expect(await ctx.platform.kv.get('sessions', `admin:${firstId}`)).toBeUndefined();

    expect((await client.post('/api/admin/logout')).statusCode).toBe(200);
    expect(await ctx.platform.kv.get('sessions', `admin:${secondId}`)).toBeUndefined();
    expect((await client.get('/api/admin/session-status')).json()).toEqual({ isAdmin: false });
    // A stolen copy of the old cookie is worthless after logout.
    const replay = new TestClient(ctx.app);
    replay.cookies.set('slipway_admin', secondId!);
    expect((await replay.get('/api/admin/stats')).statusCode).toBe(401);
  });

  it('needs the anti-forgery token to sign in', async () => {
    const client = new TestClient(ctx.app);
    await client.get('/api/admin/session-status');
    client.sendXsrf = false;
    const response = await client.post('/api/admin/auth', {
      adminPassword: ctx.platform.secrets.adminPassword,
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers stats in the spec shape', async () => {
    const admin = await signInAdmin(ctx);
    const response = await admin.get('/api/admin/stats');
    expect(response.json()).toEqual({
      users: { total: expect.any(Number), whitelisted: expect.any(Number) },
      vms: { running: 0, total: 0 },
      workspaces: { total: 0, active: 0 },
      jobs: { recent_total: 0, recent_failed: 0 },
    });
  });
});
