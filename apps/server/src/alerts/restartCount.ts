import { RESTART_WINDOW_MS } from './healthChecks.js';

/**
 * How often each container died lately, from the two witnesses of the same deaths: the engine's `die` events
 * and its restart counter (read when a container is inspected). They are never added up: the engine counts a
 * restart when the container dies, before its `die` event is sent, so a busy engine's inspect already shows a
 * death whose event arrives later. A death is known by its time, so an event replayed after a reconnect
 * (the stream resumes from the last event's second) is the same death.
 */
export function createRestartCount(windowMs = RESTART_WINDOW_MS) {
  /** Per container: the times (ms) of its `die` events. */
  const dies = new Map<string, Set<number>>();
  /** Per container: the engine's restart counter each time it was inspected. */
  const counters = new Map<string, { at: number; count: number }[]>();

  const recentDies = (containerId: string, now: number) => {
    const times = dies.get(containerId);
    if (!times) return 0;
    for (const at of times) if (now - at >= windowMs) times.delete(at);
    if (times.size === 0) dies.delete(containerId);
    return times.size;
  };

  return {
    /**
     * A `die` event; returns the deaths within the window that ends with this one, this one included. Deaths
     * the engine reported after it do not count: its crash report may run after their events arrived.
     */
    died(containerId: string, at: Date, now = Date.now()): number {
      const times = dies.get(containerId) ?? new Set<number>();
      times.add(at.getTime());
      dies.set(containerId, times);
      recentDies(containerId, now);
      let deaths = 0;
      for (const time of times) if (time <= at.getTime() && at.getTime() - time < windowMs) deaths++;
      return deaths;
    },

    /**
     * Deaths within the window, given the counter inspect shows now: the rise of the counter since the oldest
     * reading within the window, or the `die` events seen, whichever knows more (events are lost when the
     * engine restarts; the counter's rise is unknown before a second reading).
     */
    inWindow(containerId: string, restartCount: number, now = Date.now()): number {
      const readings = (counters.get(containerId) ?? []).filter((reading) => now - reading.at < windowMs);
      readings.push({ at: now, count: restartCount });
      counters.set(containerId, readings);
      return Math.max(restartCount - readings[0]!.count, recentDies(containerId, now));
    },

    /** Drops what the window no longer holds (containers removed since included). */
    forgetOld(now = Date.now()) {
      for (const id of [...dies.keys()]) recentDies(id, now);
      for (const [id, readings] of counters) {
        const kept = readings.filter((reading) => now - reading.at < windowMs);
        if (kept.length === 0) counters.delete(id);
        else counters.set(id, kept);
      }
    },
  };
}

export type RestartCount = ReturnType<typeof createRestartCount>;
