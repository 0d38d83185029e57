import { afterEach, describe, expect, it } from 'vitest';
import { requireService } from '../../test/services.js';
import { createTestContext, type TestContext } from '../../test/testPlatform.js';
import { BULLMQ_PREFIX } from './bullmqQueue.js';

const BACKENDS = [
  { name: 'in-process (PGlite)', options: {} },
  ...(requireService('redis') ? [{ name: 'bullmq (Redis)', options: { redis: true } }] : []),
];

const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each(BACKENDS)('JobQueue contract: $name', ({ options }) => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  async function fresh() {
    ctx = await createTestContext(options);
    if (ctx.platform.redis) {
      const keys = await ctx.platform.redis.keys(`${BULLMQ_PREFIX}:*`);
      if (keys.length) await ctx.platform.redis.del(...keys);
    }
    return ctx.platform.queue;
  }

  it('runs each job once with its payload, by its kind', async () => {
    const queue = await fresh();
    const seen: unknown[] = [];
    await queue.start({
      greet: async (payload) => {
        seen.push(payload);
      },
    });
    await queue.enqueue('greet', { name: 'ada' });
    await queue.enqueue('greet', { name: 'grace' });
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual(expect.arrayContaining([{ name: 'ada' }, { name: 'grace' }]));
    await waitFor(async () => (await queue.counts()).completed === 2);
  });

  it('queues a job id only once while it exists', async () => {
    const queue = await fresh();
    let runs = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await queue.start({
      slow: async () => {
        runs += 1;
        await gate;
      },
    });
    await queue.enqueue('slow', {}, { jobId: 'deploy-1' });
    await queue.enqueue('slow', {}, { jobId: 'deploy-1' });
    await waitFor(() => runs === 1);
    release();
    await waitFor(async () => (await queue.counts()).completed === 1);
    expect(runs).toBe(1);
  });

  it('records a failing job as failed and keeps going', async () => {
    const queue = await fresh();
    const done: string[] = [];
    await queue.start({
      boom: async () => {
        throw new Error('kaboom');
      },
      fine: async () => {
        done.push('fine');
      },
    });
    await queue.enqueue('boom', {});
    await queue.enqueue('fine', {});
    await waitFor(async () => (await queue.counts()).failed === 1 && done.length === 1);
  });

  it('runs jobs that were waiting before the worker started', async () => {
    const queue = await fresh();
    await queue.enqueue('later', { n: 1 });
    const seen: unknown[] = [];
    await queue.start({
      later: async (payload) => {
        seen.push(payload);
      },
    });
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([{ n: 1 }]);
  });
});
