/**
 * Durable background jobs. BullMQ on Redis when REDIS_URL is set; otherwise an in-process worker whose
 * jobs are kept in the database so a restart picks them up. Both pass `jobQueue.contract.ts`.
 */
export interface EnqueueOptions {
  /** A job id already queued or running is not queued again. */
  jobId?: string;
}

export type JobHandler = (payload: unknown, context: { jobId: string; attempt: number }) => Promise<void>;

export interface JobCounts {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
}

/** How many jobs of each kind run at once in this process (a kind not named: {@link DEFAULT_CONCURRENCY}). */
export type Concurrency = Readonly<Record<string, number>>;

export const DEFAULT_CONCURRENCY = 4;

export const slotsFor = (concurrency: Concurrency | undefined, kind: string) =>
  concurrency?.[kind] ?? DEFAULT_CONCURRENCY;

export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  enqueue(kind: string, payload: unknown, options?: EnqueueOptions): Promise<string>;
  /**
   * Starts processing; exactly one handler per kind, each kind with slots of its own (a wave of backups never
   * holds a deployment back). Jobs interrupted by a previous stop are run again.
   */
  start(handlers: Record<string, JobHandler>, options?: { concurrency?: Concurrency }): Promise<void>;
  counts(): Promise<JobCounts>;
  /** Stops taking jobs and waits for running ones to finish. */
  close(): Promise<void>;
}
