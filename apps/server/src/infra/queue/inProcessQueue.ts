import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rawRows.js';
import { queueJobs } from '../db/schema.js';
import { type Concurrency, type JobCounts, type JobHandler, type JobQueue, slotsFor } from './jobQueue.js';

/** How often a started queue looks for jobs it was not told about (enqueued by another process). */
export const POLL_MS = 2_000;
/** The same on the embedded database, which no other process opens: only a claim that failed is looked for. */
export const EMBEDDED_QUEUE_POLL_MS = 10_000;

/**
 * Jobs live in the `queue_jobs` table; this process claims and runs them, each kind in slots of its own.
 * A job it enqueues starts at once; one another process enqueued (a second replica, a worker process) is
 * found by the next look, every {@link POLL_MS}, as is one whose claim failed.
 */
export function createInProcessQueue(
  db: Db,
  settings: { onClaimError?: (error: unknown) => void; pollMs?: number } = {},
): JobQueue {
  let handlers: Record<string, JobHandler> | undefined;
  let concurrency: Concurrency | undefined;
  /** Jobs (and claims looking for one) per kind. */
  const running = new Map<string, number>();
  let closed = false;
  let poll: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<void>>();

  async function claim(kind: string) {
    // A single UPDATE claims the oldest waiting job of the kind, so two pumps never take the same one.
    const result = await db.execute(sql`
      update queue_jobs set state = 'active', attempts = attempts + 1, updated_at = now()
      where id = (select id from queue_jobs where state = 'waiting' and kind = ${kind} order by created_at, id limit 1 for update skip locked)
      returning id, kind, payload, attempts`);
    return rowsOf<{ id: string; kind: string; payload: unknown; attempts: number }>(result)[0];
  }

  async function runOne(job: { id: string; kind: string; payload: unknown; attempts: number }) {
    const handler = handlers?.[job.kind];
    try {
      if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
      await handler(job.payload, { jobId: job.id, attempt: job.attempts });
      await db
        .update(queueJobs)
        .set({ state: 'completed', updatedAt: new Date() })
        .where(eq(queueJobs.id, job.id));
    } catch (error) {
      await db
        .update(queueJobs)
        .set({ state: 'failed', error: (error as Error).message, updatedAt: new Date() })
        .where(eq(queueJobs.id, job.id));
    }
  }

  /** Starts one more claimer for each kind with a free slot; each claimer that found work starts the next. */
  function pump() {
    for (const kind of Object.keys(handlers ?? {})) pumpKind(kind);
  }

  function pumpKind(kind: string) {
    const busy = running.get(kind) ?? 0;
    if (!handlers || closed || busy >= slotsFor(concurrency, kind)) return;
    running.set(kind, busy + 1);
    const task = claim(kind)
      .then(async (job) => {
        if (!job) return false;
        await runOne(job);
        return true;
      })
      .catch((error) => {
        // Claiming failed (the database was unreachable for a moment): the next look tries again.
        settings.onClaimError?.(error);
        return false;
      })
      .then((didWork) => {
        running.set(kind, (running.get(kind) ?? 1) - 1);
        inFlight.delete(task);
        if (didWork) pumpKind(kind);
      });
    inFlight.add(task);
  }

  return {
    kind: 'in-process',
    async enqueue(kind, payload, options) {
      const id = options?.jobId ?? randomUUID();
      await db.insert(queueJobs).values({ id, kind, payload }).onConflictDoNothing();
      if (handlers && Object.hasOwn(handlers, kind)) pumpKind(kind);
      return id;
    },
    async start(jobHandlers, options) {
      handlers = jobHandlers;
      concurrency = options?.concurrency;
      // Whatever was running when the last process stopped runs again; its handler decides how to resume.
      await db.update(queueJobs).set({ state: 'waiting' }).where(eq(queueJobs.state, 'active'));
      const waiting = await db
        .select({ kind: queueJobs.kind, n: count() })
        .from(queueJobs)
        .where(eq(queueJobs.state, 'waiting'))
        .groupBy(queueJobs.kind);
      for (const { kind, n } of waiting) {
        if (!Object.hasOwn(jobHandlers, kind)) continue;
        for (let i = 0; i < Math.min(slotsFor(concurrency, kind), Number(n)); i++) pumpKind(kind);
      }
      poll ??= setInterval(pump, settings.pollMs ?? POLL_MS);
      poll.unref();
    },
    async counts(): Promise<JobCounts> {
      const rows = await db
        .select({ state: queueJobs.state, n: count() })
        .from(queueJobs)
        .groupBy(queueJobs.state);
      const by = Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
      return {
        waiting: by.waiting ?? 0,
        active: by.active ?? 0,
        completed: by.completed ?? 0,
        failed: by.failed ?? 0,
      };
    },
    async close() {
      closed = true;
      clearInterval(poll);
      await Promise.allSettled([...inFlight]);
    },
  };
}
