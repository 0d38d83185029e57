import type { Logger } from 'pino';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { JobQueue } from '../infra/queue/jobQueue.js';
import {
  enqueueJob,
  type JobHandlers,
  type JobKind,
  type JobPayload,
  RUN_IDS,
  startJobWorkers,
} from './jobCatalogue.js';

/**
 * The one home of every durable run — a deployment, a backup, a restore: one heartbeat, one reaper, one cancel,
 * and one way to go on after the process running it died. A run's row lives in its area's table (the area
 * knows what its phases mean); this module knows only how a run is taken, kept alive, stopped and taken again.
 */

/** Why a run was asked to stop (its owner cancelled it): `message` is the sentence for its row. */
export class RunCancelled extends Error {
  override name = 'RunCancelled';
}

export interface RunContext {
  /** Aborted with a {@link RunCancelled} when the run is cancelled, from any replica. */
  readonly signal: AbortSignal;
  /**
   * Says the run reached a phase its area has just stored (after the store, so a crash at this point finds it
   * recorded). Observers see it: the server log at debug level, and tests that crash the process here.
   */
  reached(phase: string): void;
}

/** How the home reaches one kind of run: its area's table, and what a run and its resumption do. */
export interface DurableKind<K extends JobKind, Row> {
  readonly job: K;
  /**
   * Takes the run for this process: its first run, or — once it was taken and its heartbeat is older than
   * `staleBefore` — again, after the process running it died. Exactly one caller wins either.
   */
  claim(id: string, now: Date, staleBefore: Date): Promise<{ row: Row; resumed: boolean } | undefined>;
  /** Marks a taken run alive. */
  beat(id: string, now: Date): Promise<void>;
  /** The runs that were taken and are still at work, whose heartbeat is older than `before`. */
  stale(before: Date): Promise<string[]>;
  /** Whether the run has ended (or no longer exists). */
  ended(id: string): Promise<boolean>;
  /** The run, from its start. */
  run(row: Row, context: RunContext): Promise<void>;
  /**
   * The run again after a crash: finish what it was doing, or undo it, and end its row with a sentence. Must
   * be safe to call again when it was itself interrupted.
   */
  resume(row: Row, context: RunContext): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: each kind's row type is its own; the map holds them all.
type AnyKind = DurableKind<JobKind, any>;

const cancelChannel = (job: JobKind, id: string) => `run-cancel:${job}:${id}`;

/** A run whose heartbeat is older than this many heartbeats lost its process. */
export const STALE_HEARTBEATS = 5;

export function createDurableRuns(deps: {
  queue: JobQueue;
  pubsub: PubSub;
  logger: Logger;
  heartbeatMs: number;
  now?: () => Date;
  /** Told each phase a run reached, once its area stored it (tests crash the process here). */
  onReached?: (job: JobKind, id: string, phase: string) => void;
}) {
  const now = deps.now ?? (() => new Date());
  const kinds = new Map<JobKind, AnyKind>();
  const staleAfterMs = STALE_HEARTBEATS * deps.heartbeatMs;
  /** Runs this process executes now, and runs it enqueued that have not ended (for `idle`). */
  const executing = new Set<Promise<void>>();
  const enqueuedHere = new Map<string, JobKind>();
  let workersStarted = false;

  function kindOf(job: JobKind): AnyKind {
    const kind = kinds.get(job);
    if (!kind) throw new Error(`No durable kind registered for ${job}`);
    return kind;
  }

  /** Takes the run and runs (or resumes) it; `staleBefore`: a taken run's heartbeat older than this is dead. */
  async function execute(job: JobKind, id: string, staleBefore?: Date): Promise<void> {
    const kind = kindOf(job);
    const at = now();
    const claimed = await kind.claim(id, at, staleBefore ?? new Date(at.getTime() - staleAfterMs));
    if (!claimed) return;
    const log = deps.logger.child({ run: job, id });
    const controller = new AbortController();
    const beat = setInterval(() => {
      kind.beat(id, now()).catch((error) => log.warn({ err: error }, 'a run heartbeat failed'));
    }, deps.heartbeatMs);
    beat.unref();
    const stopListening = await deps.pubsub
      .subscribe(cancelChannel(job, id), (message) => {
        const reason = (message as { reason?: unknown } | undefined)?.reason;
        controller.abort(new RunCancelled(typeof reason === 'string' ? reason : 'Cancelled'));
      })
      .catch((error) => {
        log.warn({ err: error }, 'listening for a cancel failed; the run goes on without one');
        return async () => {};
      });
    const context: RunContext = {
      signal: controller.signal,
      reached(phase) {
        log.debug({ phase }, 'run reached a phase');
        deps.onReached?.(job, id, phase);
      },
    };
    if (claimed.resumed) log.warn('taking over a run whose process stopped');
    try {
      await (claimed.resumed ? kind.resume(claimed.row, context) : kind.run(claimed.row, context));
    } finally {
      clearInterval(beat);
      await stopListening().catch((error) => log.warn({ err: error }, 'leaving the cancel channel failed'));
    }
  }

  /** Runs one execution, kept for `idle` and `stop`; its failure is logged with the run's name. */
  function track(job: JobKind, id: string, staleBefore?: Date): Promise<void> {
    const done = execute(job, id, staleBefore)
      .catch((error) => deps.logger.error({ err: error, run: job, id }, 'a run failed unexpectedly'))
      .finally(() => executing.delete(done));
    executing.add(done);
    return done;
  }

  const handlerFor =
    <K extends JobKind>(job: K) =>
    (payload: JobPayload<K>) =>
      track(job, RUN_IDS[job].of(payload));
  const handlers: JobHandlers = {
    'deployment.run': handlerFor('deployment.run'),
    'backup.run': handlerFor('backup.run'),
    'restore.run': handlerFor('restore.run'),
  };

  return {
    staleAfterMs,

    register<K extends JobKind, Row>(kind: DurableKind<K, Row>) {
      kinds.set(kind.job, kind as AnyKind);
    },

    /** Hands a run to the workers (any replica's): the queue is its durable hand-off until a worker takes it. */
    async enqueue<K extends JobKind>(job: K, id: string): Promise<void> {
      kindOf(job);
      await enqueueJob(deps.queue, job, RUN_IDS[job].payload(id), { jobId: id });
      enqueuedHere.set(id, job);
    },

    /** Asks the run to stop, wherever it runs; the run ends its row with `reason`. */
    async cancel(job: JobKind, id: string, reason: string): Promise<void> {
      await deps.pubsub.publish(cancelChannel(job, id), { reason });
    },

    /**
     * Every kind's runs whose process died are taken again (in this process, one caller winning each) and
     * resumed. Runs in every worker process, on the schedule catalogue's `run-reaper` timer. `everyTakenRun`: at
     * the start of a process that knows it is alone on its data, whatever the heartbeats say; `jobs`: only these
     * kinds; `wait`: answers once the runs it took have ended.
     */
    async reap(
      options: { everyTakenRun?: boolean; jobs?: readonly JobKind[]; wait?: boolean } = {},
    ): Promise<void> {
      const at = now().getTime();
      const before = new Date(options.everyTakenRun ? at + 1 : at - staleAfterMs);
      const taken: Promise<void>[] = [];
      for (const [job, kind] of kinds) {
        if (options.jobs && !options.jobs.includes(job)) continue;
        for (const id of await kind.stale(before)) taken.push(track(job, id, before));
      }
      if (options.wait) await Promise.all(taken);
    },

    /** Starts the queue's workers with one handler per kind (each runs `execute`); once per process. */
    async startWorkers(): Promise<void> {
      if (workersStarted) return;
      workersStarted = true;
      for (const job of Object.keys(RUN_IDS) as JobKind[]) kindOf(job);
      await startJobWorkers(deps.queue, handlers);
    },

    /** Resolves once the runs this process executes, and those it enqueued, have ended (tests, shutdown). */
    async idle(): Promise<void> {
      for (;;) {
        await Promise.all([...executing]);
        for (const [id, job] of enqueuedHere) if (await kindOf(job).ended(id)) enqueuedHere.delete(id);
        if (executing.size === 0 && enqueuedHere.size === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },

    /** Waits for the runs this process executes (the queue stops taking new ones first). */
    async stop(): Promise<void> {
      while (executing.size > 0) await Promise.all([...executing]);
    },
  };
}

export type DurableRuns = ReturnType<typeof createDurableRuns>;
