import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin } from '../test/adminClient.js';
import { describeWith } from '../test/services.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

describeWith('redis')('admin: Redis info and flush (Redis)', () => {
  let ctx: TestContext;
  let admin: TestClient;

  beforeAll(async () => {
    ctx = await createTestContext({ database: 'pglite', redis: true });
    await ctx.platform.redis!.flushdb();
    admin = await signInAdmin(ctx);
  });
  afterAll(() => ctx.close());

  it('counts keys by type and flushes one type at a time, keeping the others', async () => {
    const redis = ctx.platform.redis!;
    const user = await signInNewUser(ctx);
    await ctx.platform.kv.set('workflows', 'session-1', { step: 1 });
    await ctx.platform.queue.enqueue('noop', { n: 1 });
    await redis.set('someone-else:key', 'kept');

    const info = (await admin.get('/api/admin/redis/info')).json();
    expect(info).toMatchObject({ connected: true, status: 'connected' });
    expect(info.info).toContain('redis_version');
    expect(info.key_counts.sessions).toBe(2); // the user's and the admin's
    expect(info.key_counts.workflows).toBe(1);
    expect(info.key_counts.jobs).toBeGreaterThan(0);
    expect(info.key_counts.other).toBeGreaterThanOrEqual(1);
    expect(info.total_keys).toBe(await redis.dbsize());

    const flushed = await admin.post('/api/admin/redis/flush', { type: 'sessions' });
    expect(flushed.json().message).toBe('Flushed 2 sessions keys');
    expect((await user.client.get('/api/user')).statusCode).toBe(401);
    // The admin who flushed stays signed in to reload the panel; everything else is untouched.
    expect((await admin.get('/api/admin/session-status')).json()).toEqual({ isAdmin: true });
    expect(await ctx.platform.kv.get('workflows', 'session-1')).toEqual({ step: 1 });
    expect(await redis.keys('slipway:jobs:*')).not.toEqual([]);

    expect((await admin.post('/api/admin/redis/flush', { type: 'workflows' })).json().message).toBe(
      'Flushed 1 workflows keys',
    );
    expect(await ctx.platform.kv.get('workflows', 'session-1')).toBeUndefined();

    const jobs = (await admin.post('/api/admin/redis/flush', { type: 'jobs' })).json();
    expect(jobs.message).toMatch(/^Flushed [1-9]\d* jobs keys$/);
    expect(await redis.keys('slipway:jobs:*')).toEqual([]);
    expect(await redis.keys('slipway:sessions:*')).toHaveLength(1);

    const bad = await admin.post('/api/admin/redis/flush', { type: 'everything' });
    expect(bad.statusCode).toBe(400);

    await admin.post('/api/admin/redis/flush', { type: 'all' });
    expect(await redis.keys('slipway:*')).toHaveLength(1); // only the admin's restored session
    expect(await redis.get('someone-else:key')).toBe('kept');
  });
});

describe.each(DATABASES)('admin: Redis tab without Redis (%s)', (database) => {
  let ctx: TestContext;
  let admin: TestClient;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    admin = await signInAdmin(ctx);
  });
  afterAll(() => ctx.close());

  it('says Redis is not configured and reports and flushes the database-backed data', async () => {
    const user = await signInNewUser(ctx);
    await ctx.platform.kv.set('workflows', 'w1', { ok: true });
    await ctx.platform.queue.enqueue('noop', {});

    const info = (await admin.get('/api/admin/redis/info')).json();
    expect(info).toMatchObject({
      connected: false,
      status: 'Redis is not configured: sessions, jobs and workflows are stored in the database',
      key_counts: { sessions: 2, jobs: 1, workflows: 1 },
    });
    expect(info.total_keys).toBe(4 + info.key_counts.other);

    expect((await admin.post('/api/admin/redis/flush', { type: 'sessions' })).json().message).toBe(
      'Flushed 2 sessions keys',
    );
    expect((await user.client.get('/api/user')).statusCode).toBe(401);
    expect((await admin.get('/api/admin/session-status')).json()).toEqual({ isAdmin: true });
    expect((await admin.post('/api/admin/redis/flush', { type: 'jobs' })).json().message).toBe(
      'Flushed 1 jobs keys',
    );
    const after = (await admin.get('/api/admin/redis/info')).json();
    expect(after.key_counts).toMatchObject({ sessions: 1, jobs: 0, workflows: 1 });
  });
});
