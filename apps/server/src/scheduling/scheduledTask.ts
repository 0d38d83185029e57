import type { Logger } from 'pino';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { everyInterval, everyWhileLeaseHeld } from './periodicTask.js';
import { SCHEDULE, type ScheduledTaskName, type ScheduleEntry } from './scheduleCatalogue.js';

type RunsIn<N extends ScheduledTaskName> = (typeof SCHEDULE)[N]['runsIn'];
/** The tasks one replica runs, by a lease of their own. */
type LeasedTask = {
  [N in ScheduledTaskName]: RunsIn<N> extends { lease: string } ? N : never;
}[ScheduledTaskName];
/** The tasks every replica runs, or the holder of a lease their area holds. */
type UnleasedTask = Exclude<ScheduledTaskName, LeasedTask>;
/** A configured interval must be passed; a fixed one may be (tests pass shorter ones). */
type Interval<N extends ScheduledTaskName> = (typeof SCHEDULE)[N]['everyMs'] extends 'configured'
  ? { intervalMs: number }
  : { intervalMs?: number | undefined };
type Body<N extends ScheduledTaskName> = { logger: Logger; task: () => Promise<unknown> } & Interval<N>;

function timing(name: ScheduledTaskName, intervalMs: number | undefined) {
  const entry: ScheduleEntry = SCHEDULE[name];
  const everyMs = intervalMs ?? entry.everyMs;
  if (everyMs === 'configured') throw new Error(`the periodic task ${name} needs its configured interval`);
  return {
    name,
    intervalMs: everyMs,
    failure: entry.failure,
    ...(entry.firstRunAfterInterval ? { firstRunAfterInterval: true } : {}),
  };
}

/** The catalogue's task `name` with its body, in every replica (or inside a lease its area holds). */
export function scheduledTask<N extends UnleasedTask>(name: N, body: Body<N>) {
  return everyInterval({ ...timing(name, body.intervalMs), logger: body.logger, task: body.task });
}

/** The catalogue's task `name` with its body, in the one replica that holds its lease. */
export function scheduledWhileLeaseHeld<N extends LeasedTask>(
  name: N,
  body: Body<N> & { kv: KeyValueStore },
) {
  const { lease } = SCHEDULE[name].runsIn;
  return everyWhileLeaseHeld({
    ...timing(name, body.intervalMs),
    lease,
    logger: body.logger,
    task: body.task,
    kv: body.kv,
  });
}
