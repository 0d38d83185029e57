import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMemoryPubSub } from '../infra/pubsub/memoryPubSub.js';
import { createServableNames } from './servableNames.js';

const logger = pino({ level: 'silent' });

/** A load the test finishes by hand, to put a change in the middle of it. */
function heldLoads() {
  const pending: ((names: Set<string>) => void)[] = [];
  return {
    load: () => new Promise<Set<string>>((resolve) => pending.push(resolve)),
    finish: (names: string[]) => pending.shift()?.(new Set(names)),
    get waiting() {
      return pending.length;
    },
  };
}

describe('the permission endpoint’s names in memory', () => {
  it('loads once for many questions, and forgets the set on a change', async () => {
    let loads = 0;
    let names = ['shop.example.com'];
    const servable = createServableNames({
      load: async () => {
        loads++;
        return new Set(names);
      },
      pubsub: createMemoryPubSub(),
      logger,
    });
    const answers = await Promise.all(
      ['shop.example.com', 'x.example.com', 'shop.example.com'].map((host) => servable.has(host)),
    );
    expect(answers).toEqual([true, false, true]);
    expect(loads).toBe(1);
    names = [];
    servable.changed();
    expect(await servable.has('shop.example.com')).toBe(false);
    expect(loads).toBe(2);
  });

  it('never keeps a set read before a change: a removed name is refused at once', async () => {
    const held = heldLoads();
    const servable = createServableNames({ load: held.load, pubsub: createMemoryPubSub(), logger });
    const before = servable.has('shop.example.com');
    servable.changed(); // removed while the first load is still under way
    const after = servable.has('shop.example.com');
    expect(held.waiting).toBe(2);
    held.finish(['shop.example.com']); // the first load, read before the removal
    held.finish([]);
    expect(await before).toBe(true);
    expect(await after).toBe(false);
    const again = servable.has('shop.example.com');
    expect(held.waiting).toBe(0); // the second load was kept: no third one
    expect(await again).toBe(false);
  });

  it('forgets the set when another replica announces a change', async () => {
    const pubsub = createMemoryPubSub();
    let names = ['shop.example.com'];
    const load = async () => new Set(names);
    const here = createServableNames({ load, pubsub, logger });
    const there = createServableNames({ load, pubsub, logger });
    await here.start();
    expect(await here.has('shop.example.com')).toBe(true);
    names = [];
    there.changed();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await here.has('shop.example.com')).toBe(false);
    await here.stop();
  });
});
