import { randomUUID } from 'node:crypto';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { baseServiceName, type ContainerSummary, serviceName } from '../workspaces/workspaceDocker.js';
import { type Failure, RESTART_WINDOW_MS } from './healthChecks.js';

/** Why Slipway itself stops containers of a workspace: the health monitor raises no alert for those stops. */
export type StopReason = 'deletion' | 'stop' | 'backup' | 'restore' | 'preview removal';

export interface StopAnnouncement {
  workspaceId: string;
  /** The Compose services whose containers stop; all of the workspace's when left out. */
  services?: readonly string[];
  reason: StopReason;
  /** The longest the stops may take: past it, a stop is a failure again, whether or not `end` was called. */
  boundMs: number;
}

export interface AnnouncedStop {
  /** The work is over: a container that dies after this is a failure again. */
  end(): Promise<void>;
}

/** One announcement as stored: its time span (ms since the epoch). */
interface StopWindow {
  id: string;
  reason: StopReason;
  from: number;
  until: number;
  endedAt?: number;
}

/**
 * A death's event can be handled well after the death (the monitor waits for a late `oom` event, and works through
 * one workspace's events in order): an announcement is kept this long after it ends, and a death is judged by when
 * it happened.
 */
const KEPT_AFTER_END_MS = RESTART_WINDOW_MS;
/** The engine stamps a death with its clock, Slipway the announcement with its own: a VM's clock may be off by this. */
const CLOCK_SLACK_MS = 2_000;
const NAMESPACE = 'workflows';
const keyOf = (workspaceId: string, service: string | undefined) =>
  `expected-stop:${workspaceId}:${service ?? '*'}`;
const endOf = (window: StopWindow) => Math.min(window.endedAt ?? window.until, window.until);

/**
 * "These containers stop on purpose": a deletion, a stop, a restore or a preview's removal announces itself here
 * before it stops anything, and the health monitor (healthMonitor.ts) asks before it raises an alert. Kept in the
 * key-value store, so the replica that holds the monitor's lease hears what another replica announced.
 */
export function createExpectedStops(kv: KeyValueStore) {
  const windowsAt = async (key: string) => (await kv.get<StopWindow[]>(NAMESPACE, key)) ?? [];

  async function save(key: string, windows: StopWindow[]) {
    const now = Date.now();
    const kept = windows.filter((window) => endOf(window) + KEPT_AFTER_END_MS > now);
    if (kept.length === 0) {
      await kv.delete(NAMESPACE, key);
      return;
    }
    const expires = Math.max(...kept.map((window) => endOf(window) + KEPT_AFTER_END_MS));
    await kv.set(NAMESPACE, key, kept, expires - now);
  }

  /** The announcements that name this container's service, or the whole workspace. */
  async function windowsFor(workspaceId: string, service: string | undefined): Promise<StopWindow[]> {
    const keys = [keyOf(workspaceId, undefined), ...(service ? [keyOf(workspaceId, service)] : [])];
    return (await Promise.all(keys.map(windowsAt))).flat();
  }

  async function announce(announcement: StopAnnouncement): Promise<AnnouncedStop> {
    const from = Date.now();
    const window: StopWindow = {
      id: randomUUID(),
      reason: announcement.reason,
      from,
      until: from + announcement.boundMs,
    };
    const keys = announcement.services?.length
      ? announcement.services.map((service) => keyOf(announcement.workspaceId, service))
      : [keyOf(announcement.workspaceId, undefined)];
    for (const key of keys) await save(key, [...(await windowsAt(key)), window]);
    return {
      async end() {
        const endedAt = Date.now();
        for (const key of keys) {
          await save(
            key,
            (await windowsAt(key)).map((stored) =>
              stored.id === window.id ? { ...stored, endedAt } : stored,
            ),
          );
        }
      },
    };
  }

  return {
    announce,

    /** Announces the stops, runs `work`, and ends the announcement however the work ends. */
    async during<T>(announcement: StopAnnouncement, work: () => Promise<T>): Promise<T> {
      const announced = await announce(announcement);
      try {
        return await work();
      } finally {
        await announced.end();
      }
    },

    /** The reason a container of `service` that died at `diedAt` was stopped on purpose, if it was. */
    async explainsDeath(workspaceId: string, service: string, diedAt: Date): Promise<StopReason | undefined> {
      const at = diedAt.getTime();
      const windows = await windowsFor(workspaceId, service);
      return windows.find(
        (window) => at >= window.from - CLOCK_SLACK_MS && at <= endOf(window) + CLOCK_SLACK_MS,
      )?.reason;
    },

    /** The reason the service (or, without one, the whole workspace) is being stopped on purpose right now. */
    async stoppingNow(workspaceId: string, service?: string): Promise<StopReason | undefined> {
      const now = Date.now();
      const windows = await windowsFor(workspaceId, service);
      return windows.find((window) => now >= window.from && now <= endOf(window))?.reason;
    },
  };
}

export type ExpectedStops = ReturnType<typeof createExpectedStops>;

/**
 * The failures a check found of services Slipway is stopping on purpose right now: they raise no alert and make
 * no crash to watch; an alert already open for one stays open (its failure is not over). A replica's failure is
 * its Compose service's (`web.2` is `web`).
 */
export async function failuresStoppedOnPurpose(
  stops: ExpectedStops,
  workspaceId: string,
  containers: ContainerSummary[],
  failures: Map<string, Failure>,
): Promise<Set<string>> {
  const baseOf = new Map(containers.map((container) => [serviceName(container), baseServiceName(container)]));
  const held = new Set<string>();
  for (const [fingerprint, failure] of failures) {
    const service = failure.service === null ? undefined : (baseOf.get(failure.service) ?? failure.service);
    if (await stops.stoppingNow(workspaceId, service)) held.add(fingerprint);
  }
  return held;
}
