import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireService } from '../../test/services.js';
import { createTestContext, type TestContext } from '../../test/testPlatform.js';

const BACKENDS = [
  { name: 'database (PGlite)', options: {} },
  ...(requireService('postgres')
    ? [{ name: 'database (PostgreSQL)', options: { database: 'postgres' as const } }]
    : []),
  ...(requireService('redis') ? [{ name: 'redis', options: { redis: true } }] : []),
];

describe.each(BACKENDS)('KeyValueStore contract: $name', ({ options }) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(options);
    await ctx.platform.kv.flush('sessions');
    await ctx.platform.kv.flush('workflows');
    await ctx.platform.kv.flush('ratelimit');
  });
  afterAll(() => ctx.close());

  it('stores, reads back and deletes JSON values', async () => {
    const { kv } = ctx.platform;
    await kv.set('workflows', 'a', { nested: { list: [1, 'two', null] }, text: 'line\nbreak' });
    expect(await kv.get('workflows', 'a')).toEqual({
      nested: { list: [1, 'two', null] },
      text: 'line\nbreak',
    });
    expect(await kv.delete('workflows', 'a')).toBe(true);
    expect(await kv.get('workflows', 'a')).toBeUndefined();
    expect(await kv.delete('workflows', 'a')).toBe(false);
  });

  it('expires keys after their time to live and can extend them', async () => {
    const { kv } = ctx.platform;
    // Times long enough that a loaded machine still extends the key before its first life ends.
    await kv.set('sessions', 'short', 1, 150);
    await kv.set('sessions', 'extended', 2, 2_000);
    const extendedUntil = Date.now() + 2_000;
    expect(await kv.expire('sessions', 'extended', 60_000)).toBe(true);
    expect(await kv.expire('sessions', 'missing', 60_000)).toBe(false);
    // The short key goes by itself; the extended one outlives its first time to live.
    const deadline = Date.now() + 10_000;
    while ((await kv.get('sessions', 'short')) !== undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await kv.get('sessions', 'short')).toBeUndefined();
    while (Date.now() <= extendedUntil) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await kv.get('sessions', 'extended')).toBe(2);
  });

  it('increments atomically within a window that then restarts', async () => {
    const { kv } = ctx.platform;
    // The window outlasts the burst however loaded the machine: ten concurrent increments count 1..10.
    const results = await Promise.all(
      Array.from({ length: 10 }, () => kv.increment('ratelimit', 'ip', 60_000)),
    );
    expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    // Each count says how long its window has left: never more than the window, and less as it passes.
    for (const { resetInMs } of results) {
      expect(resetInMs).toBeGreaterThan(0);
      expect(resetInMs).toBeLessThanOrEqual(60_000);
    }
    // A later count is in the same window, which has not grown.
    const later = await kv.increment('ratelimit', 'ip', 60_000);
    expect(later.count).toBe(11);
    expect(later.resetInMs).toBeLessThanOrEqual(Math.max(...results.map((result) => result.resetInMs)));
    // A window that has passed restarts the count.
    expect((await kv.increment('ratelimit', 'short', 300)).count).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await kv.increment('ratelimit', 'short', 300)).toMatchObject({ count: 1 });
  });

  it('counts and flushes one namespace without touching the others', async () => {
    const { kv } = ctx.platform;
    await kv.flush('sessions');
    await kv.flush('workflows');
    await Promise.all([
      kv.set('sessions', 's1', 1),
      kv.set('sessions', 's2', 2),
      kv.set('workflows', 'w1', 3),
    ]);
    expect(await kv.count('sessions')).toBe(2);
    expect(await kv.flush('sessions')).toBe(2);
    expect(await kv.count('sessions')).toBe(0);
    expect(await kv.get('workflows', 'w1')).toBe(3);
  });
});
