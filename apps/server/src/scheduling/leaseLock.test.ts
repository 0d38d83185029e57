import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabaseKeyValueStore } from '../infra/kv/databaseKeyValueStore.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { requireService } from '../test/services.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { holdLease, type Lease } from './leaseLock.js';

const stores = requireService('redis') ? [false, true] : [false];

describe.each(stores)('lease (redis: %s)', (redis) => {
  let ctx: TestContext | undefined;
  const leases: Lease[] = [];
  afterEach(async () => {
    for (const lease of leases.splice(0)) await lease.stop();
    await ctx?.close();
  });

  it('lets one holder run at a time and hands over when it stops', async () => {
    ctx = await createTestContext({ redis });
    // Two replicas share the store: the database's as it is on PostgreSQL (the embedded one is a process's own).
    const kv = redis
      ? ctx.platform.kv
      : createDatabaseKeyValueStore(ctx.platform.db, { onSweepError: () => {}, onlyThisProcess: false });
    const name = `test-${Math.random()}`;
    const running: string[] = [];
    const make = (id: string) =>
      holdLease({
        kv,
        name,
        ttlMs: 600,
        logger: pino({ level: 'silent' }),
        onAcquired: () => void running.push(id),
        onLost: () => void running.splice(running.indexOf(id), 1),
      });
    const first = make('a');
    leases.push(first);
    await waitUntil(() => first.held, 3000, 'first lease');
    const second = make('b');
    leases.push(second);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(running).toEqual(['a']);
    expect(second.held).toBe(false);
    await first.stop();
    await waitUntil(() => second.held, 3000, 'hand-over');
    expect(running).toEqual(['b']);
  });
});

it("holds a lease at once, and asks the store nothing, when the store is the process's own (the embedded database)", async () => {
  const asked: string[] = [];
  const kv = new Proxy({ kind: 'database', onlyThisProcess: true } as KeyValueStore, {
    get: (target, key) =>
      key in target ? target[key as keyof KeyValueStore] : () => asked.push(String(key)),
  });
  const events: string[] = [];
  const lease = holdLease({
    kv,
    name: 'alone',
    logger: pino({ level: 'silent' }),
    onAcquired: () => void events.push('acquired'),
    onLost: () => void events.push('lost'),
  });
  await waitUntil(() => lease.held, 1000, 'the lease');
  await lease.stop();
  expect(events).toEqual(['acquired', 'lost']);
  expect(asked).toEqual([]);
});
