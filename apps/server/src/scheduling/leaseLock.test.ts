import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
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
    const kv = ctx.platform.kv;
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
