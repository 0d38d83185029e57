import { createHash } from 'node:crypto';
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

  it('merges many overlapping chunks into the newest N by time, of one service or before a time', async () => {
    const store = ctx.platform.runningApps.logStore;
    const base = Date.now() - 600_000;
    const all: ServiceLogLine[] = [];
    // 60 flushes (more chunks than one read page), two services whose times interleave, then a late flush
    // of old lines; several lines share a millisecond.
    for (let flush = 0; flush < 60; flush++) {
      const batch = Array.from({ length: 6 }, (_, i) => {
        const service = i % 2 === 0 ? 'web' : 'worker';
        return line(
          'merge',
          service,
          `${service}-1`,
          at(base, flush * 10 + Math.floor(i / 2) * 4),
          `${flush}.${i}`,
        );
      });
      all.push(...batch);
      await store.insertBatch(batch);
    }
    const late = [
      line('merge', 'web', 'web-0', at(base, 5), 'late 1'),
      line('merge', 'web', 'web-0', at(base, 305), 'late 2'),
    ];
    all.push(...late);
    await store.insertBatch(late);

    const stored = await store.recent(userId, 'merge', { limit: 10_000 });
    expect(stored).toHaveLength(all.length);
    const byTime = [...all].sort((a, b) => a.ts.getTime() - b.ts.getTime());
    expect(stored.map((entry) => entry.ts.getTime())).toEqual(byTime.map((entry) => entry.ts.getTime()));
    // Within a millisecond, storage order (ids) decides.
    for (let i = 1; i < stored.length; i++)
      if (stored[i]!.ts.getTime() === stored[i - 1]!.ts.getTime())
        expect(stored[i]!.id).toBeGreaterThan(stored[i - 1]!.id);
    for (const limit of [1, 7, 50, 200]) {
      expect(await store.recent(userId, 'merge', { limit })).toEqual(stored.slice(-limit));
    }
    const web = stored.filter((entry) => entry.service === 'web');
    expect(await store.recent(userId, 'merge', { limit: 25, service: 'web' })).toEqual(web.slice(-25));
    const before = at(base, 300);
    const earlier = stored.filter((entry) => entry.ts <= before);
    expect(await store.recent(userId, 'merge', { limit: 20, before })).toEqual(earlier.slice(-20));
    expect((await store.distinctServices(userId, 'merge')).sort()).toEqual(['web', 'worker']);
    expect(await store.lastTimestamp(userId, 'merge', 'web-0')).toEqual(at(base, 305));
    expect(await store.lastTimestamp(userId, 'merge', 'worker-1')).toEqual(at(base, 598));
  });

  it('returns a batch in id order, and a prune that cuts into a chunk keeps the ids of what stays', async () => {
    const store = ctx.platform.runningApps.logStore;
    const now = Date.now();
    const mixed = Array.from({ length: 10 }, (_, i) =>
      line('trim', i % 2 ? 'web' : 'worker', 'c', at(now - 20 * 86_400_000, i), `old ${i}`),
    );
    const fresh = Array.from({ length: 10 }, (_, i) =>
      line('trim', 'web', 'c', at(now - 1000, i), `new ${i}`),
    );
    const stored = await store.insertBatch([...mixed, ...fresh]);
    expect(stored.map((entry) => entry.id)).toEqual(
      [...stored.map((entry) => entry.id)].sort((a, b) => a - b),
    );
    const ids = new Map(stored.map((entry) => [entry.line, entry.id]));
    // Age: the old lines go, the web chunk that held old and new keeps its new lines with their ids.
    expect(await store.prune({ lines: 1000, bytes: 1 << 20, days: 14 })).toBe(10);
    // Lines: 4 of the 10 stay, the newest (the bound is for every workspace: the others' lines go too).
    expect(await store.prune({ lines: 4, bytes: 1 << 20, days: 14 })).toBeGreaterThanOrEqual(6);
    const kept = await store.recent(userId, 'trim', { limit: 100 });
    expect(kept.map((entry) => entry.line)).toEqual(['new 6', 'new 7', 'new 8', 'new 9']);
    for (const entry of kept) expect(entry.id).toBe(ids.get(entry.line));
  });

  it('bounds a workspace by bytes as well as lines, and gives the space back', async () => {
    const store = ctx.platform.runningApps.logStore;
    // A digest per line: text that compresses about as well as real logs, not a thousandfold.
    const text = (i: number) =>
      `${String(i).padStart(6, '0')} ${createHash('sha256').update(String(i)).digest('hex')} handled in ${String(i % 90).padStart(2, '0')} ms`;
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
    // Stored in chunks: at most twice the text (issue 16), however many lines.
    expect(filled - before).toBeLessThanOrEqual(2 * 10000 * lineBytes);
    expect(filled - before).toBeGreaterThan(0.3 * 10000 * lineBytes);
    // Nine tenths of the lines went: most of their space is back on the file system.
    expect(reclaimed).toBeLessThan(before + (filled - before) * 0.3);
  });
});
