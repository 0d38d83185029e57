import { z } from 'zod';
import type { EnqueueOptions, JobQueue } from '../infra/queue/jobQueue.js';

/** Every kind of background job and the payload it carries. A new kind is added here first. */
export const jobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('deployment.run'), payload: z.object({ deploymentId: z.uuid() }) }),
]);

export type Job = z.infer<typeof jobSchema>;
export type JobKind = Job['kind'];
export type JobPayload<K extends JobKind> = Extract<Job, { kind: K }>['payload'];
export type JobHandlers = {
  [K in JobKind]: (payload: JobPayload<K>, context: { jobId: string; attempt: number }) => Promise<void>;
};

export const JOB_KINDS: readonly JobKind[] = jobSchema.options.map((option) => option.shape.kind.value);

export async function enqueueJob<K extends JobKind>(
  queue: JobQueue,
  kind: K,
  payload: JobPayload<K>,
  options?: EnqueueOptions,
): Promise<string> {
  return queue.enqueue(kind, jobSchema.parse({ kind, payload }).payload, options);
}

/**
 * Starts the workers with exactly one handler per kind of the catalogue (checked here, at start-up, so a
 * missing or stray handler stops the boot), each receiving only a payload that matches its schema.
 */
export async function startJobWorkers(
  queue: JobQueue,
  handlers: JobHandlers,
  options?: { concurrency?: number },
): Promise<void> {
  const given = Object.keys(handlers).sort();
  const expected = [...JOB_KINDS].sort();
  if (given.join(',') !== expected.join(',')) {
    throw new Error(
      `Job handlers must cover exactly ${expected.join(', ')}; got ${given.join(', ') || 'none'}`,
    );
  }
  const checked = Object.fromEntries(
    Object.entries(handlers).map(([kind, handler]) => [
      kind,
      async (payload: unknown, context: { jobId: string; attempt: number }) => {
        const job = jobSchema.parse({ kind, payload });
        await (handler as (payload: unknown, context: { jobId: string; attempt: number }) => Promise<void>)(
          job.payload,
          context,
        );
      },
    ]),
  );
  await queue.start(checked, options);
}
