import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailWhitelist, users } from '../infra/db/schema.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import { USER_CACHE_TTL_MS } from '../users/usersRepository.js';
import { SESSION_CACHE_TTL_MS } from './sessions.js';

describe.each(DATABASES)('sign-in, sessions and access (%s)', (database) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ database });
  });
  afterAll(() => ctx.close());

  it('answers 401 without a session, and signs the local operator in on a fresh session', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.get('/api/user')).statusCode).toBe(401);
    const first = await client.get('/api/auth/github/install');
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('/');
    const sessionCookie = first.cookies.find((c) => c.name === 'slipway_session');
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const me = await client.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ login: 'operator', whitelisted: true, profile_completed: true });
    expect(me.json()).not.toHaveProperty('githubTokenEnc');

    const oldId = client.cookies.get('slipway_session');
    await client.get('/api/auth/github/install');
    expect(client.cookies.get('slipway_session')).not.toBe(oldId);
    const stale = new TestClient(ctx.app);
    stale.cookies.set('slipway_session', oldId!);
    expect((await stale.get('/api/user')).statusCode).toBe(401);
  });

  it('logs out on the server: the old cookie no longer works', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    const sessionId = client.cookies.get('slipway_session')!;
    expect((await client.post('/api/auth/logout')).statusCode).toBe(200);
    const replay = new TestClient(ctx.app);
    replay.cookies.set('slipway_session', sessionId);
    expect((await replay.get('/api/user')).statusCode).toBe(401);
  });

  it('keeps a session and its user only briefly: a change made by another process shows within the cache time', async () => {
    const { client, userId } = await signInNewUser(ctx, { whitelisted: true });
    expect((await client.get('/api/user')).json()).toMatchObject({ whitelisted: true });
    // Through this process's repository: seen on the very next request.
    await ctx.platform.users.setAccess(userId, false);
    expect((await client.get('/api/user')).json()).toMatchObject({ whitelisted: false });
    // Another server process on the same database changes the row, and another signs the session out.
    await ctx.platform.db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, userId));
    await waitUntil(
      async () => (await client.get('/api/user')).json().first_name === 'Renamed',
      USER_CACHE_TTL_MS + 3_000,
      'the renamed user',
    );
    await ctx.platform.kv.delete('sessions', `user:${client.cookies.get('slipway_session')}`);
    await waitUntil(
      async () => (await client.get('/api/user')).statusCode === 401,
      SESSION_CACHE_TTL_MS + 3_000,
      'the signed-out session',
    );
  });

  it('refuses a state-changing call without the session-bound anti-forgery token, and changes nothing', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    client.sendXsrf = false;
    const missing = await client.post('/api/auth/logout');
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ code: 'xsrf_mismatch' });
    const forged = await client.request('POST', '/api/auth/logout', {}, { 'x-xsrf-token': 'forged' });
    expect(forged.statusCode).toBe(403);
    // A token from another session is no better.
    const other = await new TestClient(ctx.app).signIn('operator');
    const crossed = await client.request(
      'POST',
      '/api/auth/logout',
      {},
      {
        'x-xsrf-token': other.cookies.get('XSRF-TOKEN')!,
      },
    );
    expect(crossed.statusCode).toBe(403);
    expect((await client.get('/api/user')).statusCode).toBe(200);
  });

  it('sends a new user to complete the profile, with the spec messages, then to the waiting list', async () => {
    const client = new TestClient(ctx.app);
    const signIn = await client.get('/api/auth/github/install?as=waiting');
    expect(signIn.headers.location).toBe('/complete-profile');
    await client.get('/api/user');

    const cases: [unknown, string][] = [
      [{ firstName: '', lastName: 'Lovelace', email: 'ada@example.com' }, 'First name is required'],
      [{ firstName: 'Ada', lastName: '  ', email: 'ada@example.com' }, 'Last name is required'],
      [{ firstName: 'Ada', lastName: 'Lovelace' }, 'Email is required'],
      [
        { firstName: 'Ada', lastName: 'Lovelace', email: 'not-an-email' },
        'Please enter a valid email address',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await client.post('/api/auth/complete-profile', payload);
      expect(response.statusCode, message).toBe(400);
      expect(response.json().error).toBe(message);
    }
    const [before] = await ctx.platform.db.select().from(users).where(eq(users.login, 'waiting-user'));
    expect(before?.profileCompleted).toBe(false);

    const refused = await client.get('/api/github/repos');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'not_whitelisted', redirect: '/waiting-list' });

    const done = await client.post('/api/auth/complete-profile', {
      firstName: 'Ada',
      lastName: 'King Lovelace',
      email: 'ada@example.com',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ first_name: 'Ada', last_name: 'King Lovelace', whitelisted: false });
  });

  it('lets a whitelisted email in as soon as its user completes the profile', async () => {
    await ctx.platform.db
      .insert(emailWhitelist)
      .values({ email: 'grace@example.com', addedBy: 'admin' })
      .onConflictDoNothing();
    const client = new TestClient(ctx.app);
    await ctx.platform.db.delete(users).where(eq(users.login, 'waiting-user'));
    await client.signIn('waiting');
    const done = await client.post('/api/auth/complete-profile', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'Grace@Example.com',
    });
    expect(done.json()).toMatchObject({ whitelisted: true });
  });

  it('answers malformed, mistyped and oversized bodies with 400/413 and an error, writing nothing', async () => {
    const client = await new TestClient(ctx.app).signIn('waiting');
    const [before] = await ctx.platform.db.select().from(users).where(eq(users.login, 'waiting-user'));
    const malformed = await client.request('POST', '/api/auth/complete-profile', '{"firstName":', {
      'content-type': 'application/json',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('The request body is not valid JSON');
    const mistyped = await client.post('/api/auth/complete-profile', { firstName: 42, lastName: ['x'] });
    expect(mistyped.statusCode).toBe(400);
    expect(typeof mistyped.json().error).toBe('string');
    const huge = await client.post('/api/auth/complete-profile', { firstName: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('The request body is too large');
    const deep = await client.request(
      'POST',
      '/api/auth/complete-profile',
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      {
        'content-type': 'application/json',
      },
    );
    expect(deep.statusCode).toBe(400);
    const [after] = await ctx.platform.db.select().from(users).where(eq(users.login, 'waiting-user'));
    expect(after).toEqual(before);
  });

  it('stores an enterprise inquiry from a visitor who holds the anti-forgery cookie', async () => {
    const visitor = new TestClient(ctx.app);
    await visitor.get('/api/health');
    await visitor.get('/api/user');
    const inquiry = {
      companyName: 'Acme',
      contactName: 'Wile E.',
      email: 'wile@acme.test',
      companySize: '51-200',
      timeline: 'short',
      useCase: '<script>alert(1)</script>',
      submittedAt: new Date().toISOString(),
    };
    const response = await visitor.post('/api/enterprise-contact', inquiry);
    expect(response.statusCode).toBe(201);
    const invalid = await visitor.post('/api/enterprise-contact', { ...inquiry, companyName: '' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe('Company name is required');
    const badEnum = await visitor.post('/api/enterprise-contact', { ...inquiry, companySize: 'huge' });
    expect(badEnum.statusCode).toBe(400);
    visitor.sendXsrf = false;
    expect((await visitor.post('/api/enterprise-contact', inquiry)).statusCode).toBe(403);
  });
});
