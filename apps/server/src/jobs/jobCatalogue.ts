import { z } from 'zod';
import type { Concurrency, EnqueueOptions, JobQueue } from '../infra/queue/jobQueue.js';

/**
 * Every kind of background job and the payload it carries. A new kind is added here first. Each job runs one
 * durable run (durableRuns.ts): the row of its area that the id names.
 */
interface Payloads {
  'deployment.run': { deploymentId: string };
  'backup.run': { backupId: string };
  'restore.run': { restoreId: string };
}

const PAYLOADS: { [K in keyof Payloads]: z.ZodType<Payloads[K]> } = {
  'deployment.run': z.object({ deploymentId: z.uuid() }),
  'backup.run': z.object({ backupId: z.uuid() }),
  'restore.run': z.object({ restoreId: z.uuid() }),
};

export type JobKind = keyof Payloads;
export type JobPayload<K extends JobKind> = Payloads[K];
export type JobHandlers = {
  [K in JobKind]: (payload: JobPayload<K>, context: { jobId: string; attempt: number }) => Promise<void>;
};

export const JOB_KINDS = Object.keys(PAYLOADS) as readonly JobKind[];

/** A payload checked against its kind's schema: a queue hands out whatever was stored. */
export const parsePayload = <K extends JobKind>(kind: K, payload: unknown): JobPayload<K> =>
  PAYLOADS[kind].parse(payload);

/** The run a job is about, and back: each kind's payload names one row. */
export const RUN_IDS: {
  [K in JobKind]: { of(payload: JobPayload<K>): string; payload(id: string): JobPayload<K> };
} = {
  'deployment.run': { of: (p) => p.deploymentId, payload: (deploymentId) => ({ deploymentId }) },
  'backup.run': { of: (p) => p.backupId, payload: (backupId) => ({ backupId }) },
  'restore.run': { of: (p) => p.restoreId, payload: (restoreId) => ({ restoreId }) },
};

/**
 * How many of each kind run at once in one process. Deployments have their own slots, so a wave of scheduled
 * backups never holds a deployment back; a restore always finds one.
 */
export const JOB_CONCURRENCY: Concurrency = { 'deployment.run': 4, 'backup.run': 2, 'restore.run': 2 };

export async function enqueueJob<K extends JobKind>(
  queue: JobQueue,
  kind: K,
  payload: JobPayload<K>,
  options?: EnqueueOptions,
): Promise<string> {
  return queue.enqueue(kind, parsePayload(kind, payload), options);
}

/**
 * Starts the workers with exactly one handler per kind of the catalogue (checked here, at start-up, so a
 * missing or stray handler stops the boot), each receiving only a payload that matches its schema.
 */
export async function startJobWorkers(queue: JobQueue, handlers: JobHandlers): Promise<void> {
  const given = Object.keys(handlers).sort();
  const expected = [...JOB_KINDS].sort();
  if (given.join(',') !== expected.join(',')) {
    throw new Error(
      `Job handlers must cover exactly ${expected.join(', ')}; got ${given.join(', ') || 'none'}`,
    );
  }
  const checked = <K extends JobKind>(kind: K) => {
    const handler: JobHandlers[K] = handlers[kind];
    return (payload: unknown, context: { jobId: string; attempt: number }) =>
      handler(parsePayload(kind, payload), context);
  };
  await queue.start(Object.fromEntries(JOB_KINDS.map((kind) => [kind, checked(kind)])), {
    concurrency: JOB_CONCURRENCY,
  });
}
