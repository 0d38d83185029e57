import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { ServiceLogLine } from './logStore.js';

describe.each(DATABASES)('workspace log history and storage (%s)', (database) => {
  let ctx: TestContext;
  let userId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    ({ userId } = await signInNewUser(ctx));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const at = (base: number, offsetMs: number) => new Date(base + offsetMs);
  const line = (
    workspaceName: string,
    service: string,
    containerId: string,
    ts: Date,
    text: string,
  ): ServiceLogLine => ({ userId, workspaceName, service, containerId, source: 'stdout', ts, line: text });

  it('reads history in time order across services and across a redeploy, however it was stored', async () => {
    const store = ctx.platform.runningApps.logStore;
    const base = Date.now() - 60_000;
    // The collector stores per container in batches: all of web's lines, then all of worker's, then the
    // redeployed containers' (new ids), then a late batch of the old web container drained at its stop.
    await store.insertBatch([
      line('shop', 'web', 'web-1', at(base, 0), 'web listening'),
      line('shop', 'web', 'web-1', at(base, 20), 'GET / 200'),
    ]);
    await store.insertBatch([
      line('shop', 'worker', 'worker-1', at(base, 10), 'worker ready'),
      line('shop', 'worker', 'worker-1', at(base, 30), 'job 1 done'),
    ]);
    await store.insertBatch([
      line('shop', 'web', 'web-2', at(base, 50), 'web listening (v2)'),
      line('shop', 'worker', 'worker-2', at(base, 60), 'worker ready (v2)'),
    ]);
    await store.insertBatch([line('shop', 'web', 'web-1', at(base, 40), 'shutting down')]);

    const history = await store.recent(userId, 'shop', { limit: 100 });
    expect(history.map((stored) => stored.line)).toEqual([
      'web listening',
      'worker ready',
      'GET / 200',
      'job 1 done',
      'shutting down',
      'web listening (v2)',
      'worker ready (v2)',
    ]);
    // The newest N are the newest by time, not the last stored.
    const newest = await store.recent(userId, 'shop', { limit: 3 });
    expect(newest.map((stored) => stored.line)).toEqual([
      'shutting down',
      'web listening (v2)',
      'worker ready (v2)',
    ]);
  });

  it('bounds a workspace by bytes as well as lines, and gives the space back', async () => {
    const store = ctx.platform.runningApps.logStore;
    const text = (i: number) =>
      `${String(i).padStart(6, '0')} ${'request handled in 12 ms, user agent curl/8.0 '.repeat(4)}`;
    const before = await store.bytesOnDisk();
    const base = Date.now() - 3_600_000;
    for (let batch = 0; batch < 20; batch++) {
      await store.insertBatch(
        Array.from({ length: 500 }, (_, i) =>
          line('chatty', 'web', 'c1', at(base, batch * 500 + i), text(batch * 500 + i)),
        ),
      );
    }
    const filled = await store.bytesOnDisk();
    const lineBytes = Buffer.byteLength(text(0));
    // Lines are plenty (100 000), bytes are what binds: 1000 lines' worth stay.
    const removed = await store.prune({ lines: 100_000, bytes: 1000 * lineBytes, days: 14 });
    expect(removed).toBe(9000);
    const kept = await store.recent(userId, 'chatty', { limit: 100_000 });
    expect(kept).toHaveLength(1000);
    expect(kept.at(-1)!.line).toBe(text(9999));
    expect(kept[0]!.line).toBe(text(9000));

    await store.reclaim(true);
    const reclaimed = await store.bytesOnDisk();
    expect(filled - before).toBeGreaterThan(10000 * lineBytes);
    // Nine tenths of the lines went: most of their space is back on the file system.
    expect(reclaimed).toBeLessThan(before + (filled - before) * 0.3);
  });
});
