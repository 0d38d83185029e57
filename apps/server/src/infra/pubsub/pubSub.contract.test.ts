import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireService } from '../../test/services.js';
import { createMemoryPubSub } from './memoryPubSub.js';
import type { PubSub } from './pubSub.js';
import { createRedisPubSub } from './redisPubSub.js';

const redisUrl = requireService('redis');
const BACKENDS: { name: string; make: () => { a: PubSub; b: PubSub; close: () => Promise<void> } }[] = [
  {
    name: 'in-memory',
    make: () => {
      const bus = createMemoryPubSub();
      return { a: bus, b: bus, close: () => bus.close() };
    },
  },
  ...(redisUrl
    ? [
        {
          name: 'redis (two replicas)',
          make: () => {
            // Two connections stand for two server replicas: what one publishes, the other hears.
            const r1 = new Redis(redisUrl);
            const r2 = new Redis(redisUrl);
            const a = createRedisPubSub(r1);
            const b = createRedisPubSub(r2);
            return {
              a,
              b,
              close: async () => {
                await a.close();
                await b.close();
                r1.disconnect();
                r2.disconnect();
              },
            };
          },
        },
      ]
    : []),
];

const next = (received: unknown[], count: number) =>
  new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      if (received.length >= count) return resolve();
      if (Date.now() - started > 3000)
        return reject(new Error(`got ${received.length} of ${count} messages`));
      setTimeout(poll, 10);
    };
    poll();
  });

describe.each(BACKENDS)('PubSub contract: $name', ({ make }) => {
  let bus: ReturnType<typeof make>;
  beforeAll(() => {
    bus = make();
  });
  afterAll(() => bus.close());

  it('delivers messages in order to every subscriber of the channel, and only of that channel', async () => {
    const first: unknown[] = [];
    const second: unknown[] = [];
    const other: unknown[] = [];
    const off1 = await bus.b.subscribe('chan', (m) => first.push(m));
    const off2 = await bus.b.subscribe('chan', (m) => second.push(m));
    const off3 = await bus.b.subscribe('other', (m) => other.push(m));
    for (let i = 0; i < 20; i++) await bus.a.publish('chan', { i, text: '<script>' });
    await next(first, 20);
    await next(second, 20);
    expect(first).toEqual(Array.from({ length: 20 }, (_, i) => ({ i, text: '<script>' })));
    expect(second).toHaveLength(20);
    expect(other).toHaveLength(0);
    await Promise.all([off1(), off2(), off3()]);
  });

  it('stops delivering after unsubscribe', async () => {
    const received: unknown[] = [];
    const off = await bus.b.subscribe('gone', (m) => received.push(m));
    await bus.a.publish('gone', 1);
    await next(received, 1);
    await off();
    await bus.a.publish('gone', 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([1]);
  });
});
