import type { Logger } from 'pino';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { whileLeaseHeld } from './leaseLock.js';

export interface PeriodicTask {
  /** Logged with every failure; the lease's name too, where there is one. */
  name: string;
  logger: Logger;
  intervalMs: number;
  task: () => Promise<unknown>;
  /** The message a failed run is logged with. */
  failure: string;
  /** The first run comes one interval after `start` rather than at once. */
  firstRunAfterInterval?: boolean;
}

/**
 * `task` at once (or, with `firstRunAfterInterval`, one interval later) and then every `intervalMs`; runs never overlap (an interval that passes during a run is
 * skipped, not queued behind it), and a failed run is logged as `failure` with the task's name (the next one
 * still comes). `start` answers when the first run has ended.
 */
export function everyInterval(options: PeriodicTask) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= Promise.resolve()
      .then(options.task)
      .catch((error) => options.logger.warn({ err: error, task: options.name }, options.failure))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    start(): Promise<unknown> {
      if (timer) return running ?? Promise.resolve();
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
      return options.firstRunAfterInterval ? Promise.resolve() : tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

/** `everyInterval` in the one replica that holds the lease `lease` (by default named as the task). */
export function everyWhileLeaseHeld(options: PeriodicTask & { kv: KeyValueStore; lease?: string }) {
  const loop = everyInterval(options);
  return whileLeaseHeld({
    kv: options.kv,
    name: options.lease ?? options.name,
    logger: options.logger,
    onAcquired: () => void loop.start(),
    onLost: () => loop.stop(),
  });
}
