import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { enqueueJob, type JobHandlers, startJobWorkers } from './jobCatalogue.js';

describe('job catalogue', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('refuses to start without exactly one handler per kind', async () => {
    ctx = await createTestContext();
    await expect(startJobWorkers(ctx.platform.queue, {} as JobHandlers)).rejects.toThrow(
      'Job handlers must cover exactly backup.run, deployment.run, restore.run; got none',
    );
    const stray = {
      'backup.run': async () => {},
      'deployment.run': async () => {},
      'restore.run': async () => {},
      'mystery.job': async () => {},
    } as unknown as JobHandlers;
    await expect(startJobWorkers(ctx.platform.queue, stray)).rejects.toThrow(
      /got backup.run, deployment.run, mystery.job, restore.run/,
    );
  });

  it('hands each handler only a payload that matches its schema', async () => {
    ctx = await createTestContext();
    const seen: unknown[] = [];
    await startJobWorkers(ctx.platform.queue, {
      'deployment.run': async (payload) => {
        seen.push(payload);
      },
      'backup.run': async () => {},
      'restore.run': async () => {},
    });
    const deploymentId = '2b1f6d3e-8c4a-4e0b-9f6a-1d2c3b4a5e6f';
    await expect(
      enqueueJob(ctx.platform.queue, 'deployment.run', { deploymentId: 'not-a-uuid' }),
    ).rejects.toThrow();
    await ctx.platform.queue.enqueue('deployment.run', { deploymentId: 42 });
    await enqueueJob(ctx.platform.queue, 'deployment.run', { deploymentId });
    const queue = ctx.platform.queue;
    for (let i = 0; i < 200 && (await queue.counts()).failed + (await queue.counts()).completed < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen).toEqual([{ deploymentId }]);
    expect(await queue.counts()).toMatchObject({ failed: 1, completed: 1 });
  });
});
