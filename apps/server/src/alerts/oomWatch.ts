import type Docker from 'dockerode';
import { LATE_OOM_MS, SIGKILL_EXIT_CODE } from '../infra/docker/lateOom.js';

/** An `oom` event this long before a death explains it (the engine sends it first, as a rule). */
const OOM_BEFORE_DIE_MS = 10_000;
/** An `oom` event stamped this long after a death explains it (a late one: the engine's stamp, not its delivery). */
const OOM_AFTER_DIE_MS = 10_000;
/** A `kill` event this long before a SIGKILL death explains it: `docker kill`, or `docker stop` past its timeout. */
const KILL_BEFORE_DIE_MS = 10_000;

/**
 * Which deaths were the kernel's OOM kills, from the engine's `oom` and `kill` events. The engine's flag is not
 * enough: an `oom` event that comes after the `die` (see LATE_OOM_MS) never sets it. So a death by SIGKILL that no
 * `kill` event asked for is judged once its `oom` event had LATE_OOM_MS to come (or came).
 */
export function createOomWatch(lateMs = LATE_OOM_MS) {
  const ooms = new Map<string, number>();
  const kills = new Map<string, number>();
  /** Per container: the deaths waiting for its `oom` event. */
  const waiters = new Map<string, Set<() => void>>();

  const oomNear = (containerId: string, diedAt: number) => {
    const at = ooms.get(containerId);
    return at !== undefined && at > diedAt - OOM_BEFORE_DIE_MS && at < diedAt + OOM_AFTER_DIE_MS;
  };
  const killedOnRequest = (containerId: string, diedAt: number) => {
    const at = kills.get(containerId);
    return at !== undefined && at <= diedAt && diedAt - at < KILL_BEFORE_DIE_MS;
  };
  const oomEvent = (containerId: string, ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const waiting = waiters.get(containerId) ?? new Set<() => void>();
      waiting.add(done);
      waiters.set(containerId, waiting);
      function done() {
        clearTimeout(timer);
        waiting.delete(done);
        if (waiting.size === 0 && waiters.get(containerId) === waiting) waiters.delete(containerId);
        resolve();
      }
    });

  const watch = {
    sawOom(containerId: string, at: Date) {
      ooms.set(containerId, at.getTime());
      for (const wake of [...(waiters.get(containerId) ?? [])]) wake();
    },
    sawKill(containerId: string, at: Date) {
      kills.set(containerId, at.getTime());
    },

    /**
     * Whether a death was an OOM kill: the engine's flag, the `oom` event before it or, for a SIGKILL nobody asked
     * for, one coming soon after. `heardAt`: when the death's own event reached Slipway — a busy engine delivers
     * its events late, the `oom` event after the `die` as late: the allowance runs from the later of the two.
     */
    async killedForMemory(
      containerId: string,
      death: { at: Date; exitCode: number; flagged: boolean; heardAt?: number },
    ): Promise<boolean> {
      const diedAt = death.at.getTime();
      if (death.flagged || oomNear(containerId, diedAt)) return true;
      if (death.exitCode !== SIGKILL_EXIT_CODE || killedOnRequest(containerId, diedAt)) return false;
      // The engine's clock stamps the death; on a VM whose clock is off, wait no longer than the allowance.
      const from = Math.max(diedAt, death.heardAt ?? diedAt);
      const remaining = Math.min(lateMs, from + lateMs - Date.now());
      if (remaining <= 0) return false;
      await oomEvent(containerId, remaining);
      return oomNear(containerId, diedAt);
    },

    /** An inspection whose OOM flag counts the `oom` events too, late ones included: what a check judges. */
    async withOomFlag(info: Docker.ContainerInspectInfo): Promise<Docker.ContainerInspectInfo> {
      const dead = !info.State.Running || info.State.Restarting;
      if (!dead || info.State.OOMKilled) return info;
      const oom = await watch.killedForMemory(info.Id, {
        at: new Date(info.State.FinishedAt),
        exitCode: info.State.ExitCode,
        flagged: false,
      });
      return oom ? { ...info, State: { ...info.State, OOMKilled: true } } : info;
    },

    forgetBefore(horizon: number) {
      for (const [id, at] of ooms) if (at < horizon) ooms.delete(id);
      for (const [id, at] of kills) if (at < horizon) kills.delete(id);
    },
  };
  return watch;
}
