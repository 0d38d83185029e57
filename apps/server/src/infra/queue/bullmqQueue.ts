import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { BULLMQ_PREFIX } from './bullmqPrefix.js';
import { type JobCounts, type JobHandler, type JobQueue, slotsFor } from './jobQueue.js';

/** Deployments keep the queue name they always had (jobs queued by an older version are still found). */
const FIRST_KIND = 'deployment.run';

/** Each kind has a BullMQ queue of its own, so that each has a worker with slots of its own. */
export const queueNameOf = (kind: string) =>
  kind === FIRST_KIND ? 'slipway' : `slipway-${kind.replace(/[^A-Za-z0-9-]/g, '-')}`;

export { BULLMQ_PREFIX };

export function createBullmqQueue(redis: Redis): JobQueue {
  // BullMQ workers block on their connection, so they need their own; maxRetriesPerRequest must be null.
  const connection = redis.duplicate({ maxRetriesPerRequest: null });
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  const queueOf = (kind: string) => {
    let queue = queues.get(kind);
    if (!queue) {
      queue = new Queue(queueNameOf(kind), { connection, prefix: BULLMQ_PREFIX });
      queues.set(kind, queue);
    }
    return queue;
  };

  return {
    kind: 'bullmq',
    async enqueue(kind, payload, options) {
      const job = await queueOf(kind).add(kind, payload, {
        ...(options?.jobId ? { jobId: options.jobId } : {}),
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      });
      return job.id ?? '';
    },
    async start(handlers: Record<string, JobHandler>, options) {
      for (const [kind, handler] of Object.entries(handlers)) {
        queueOf(kind);
        const worker = new Worker(
          queueNameOf(kind),
          async (job) => {
            if (job.name !== kind) throw new Error(`No handler for job kind ${job.name}`);
            await handler(job.data, { jobId: job.id ?? '', attempt: job.attemptsMade + 1 });
          },
          {
            connection: redis.duplicate({ maxRetriesPerRequest: null }),
            prefix: BULLMQ_PREFIX,
            concurrency: slotsFor(options?.concurrency, kind),
            // A job whose worker died is noticed within this interval and run again.
            stalledInterval: 15_000,
            maxStalledCount: 2,
            lockDuration: 30_000,
          },
        );
        // Connection errors are retried by BullMQ itself; a job's own failure is recorded on the job.
        worker.on('error', () => {});
        workers.push(worker);
      }
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    },
    async counts(): Promise<JobCounts> {
      const total: JobCounts = { waiting: 0, active: 0, completed: 0, failed: 0 };
      for (const queue of queues.values()) {
        const c = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed');
        total.waiting += (c.waiting ?? 0) + (c.delayed ?? 0);
        total.active += c.active ?? 0;
        total.completed += c.completed ?? 0;
        total.failed += c.failed ?? 0;
      }
      return total;
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      connection.disconnect();
    },
  };
}
