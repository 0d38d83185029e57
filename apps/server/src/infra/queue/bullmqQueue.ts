import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { BULLMQ_PREFIX } from './bullmqPrefix.js';
import type { JobCounts, JobHandler, JobQueue } from './jobQueue.js';

const QUEUE_NAME = 'slipway';

export { BULLMQ_PREFIX };

export function createBullmqQueue(redis: Redis): JobQueue {
  // BullMQ workers block on their connection, so they need their own; maxRetriesPerRequest must be null.
  const connection = redis.duplicate({ maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAME, { connection, prefix: BULLMQ_PREFIX });
  let worker: Worker | undefined;

  return {
    kind: 'bullmq',
    async enqueue(kind, payload, options) {
      const job = await queue.add(kind, payload, {
        ...(options?.jobId ? { jobId: options.jobId } : {}),
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      });
      return job.id ?? '';
    },
    async start(handlers: Record<string, JobHandler>, options) {
      worker = new Worker(
        QUEUE_NAME,
        async (job) => {
          const handler = handlers[job.name];
          if (!handler) throw new Error(`No handler for job kind ${job.name}`);
          await handler(job.data, { jobId: job.id ?? '', attempt: job.attemptsMade + 1 });
        },
        {
          connection: redis.duplicate({ maxRetriesPerRequest: null }),
          prefix: BULLMQ_PREFIX,
          concurrency: options?.concurrency ?? 4,
          // A job whose worker died is noticed within this interval and run again.
          stalledInterval: 15_000,
          maxStalledCount: 2,
          lockDuration: 30_000,
        },
      );
      worker.on('error', () => {});
      await worker.waitUntilReady();
    },
    async counts(): Promise<JobCounts> {
      const c = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed');
      return {
        waiting: (c.waiting ?? 0) + (c.delayed ?? 0),
        active: c.active ?? 0,
        completed: c.completed ?? 0,
        failed: c.failed ?? 0,
      };
    },
    async close() {
      await worker?.close();
      await queue.close();
      connection.disconnect();
    },
  };
}
