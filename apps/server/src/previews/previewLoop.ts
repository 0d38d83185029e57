/**
 * What the preview deployer's leased one-second tick (scheduling/scheduleCatalogue.ts) runs: `check`, then, while
 * a preview is in motion, again every `pollMs` until just before the next tick; at rest it waits, asking nothing,
 * until the next tick or a wake (a GitHub delivery recorded in this replica, a local ref moving), which checks at
 * once. Measured with bench/previews.ts, a preview otherwise waited up to a second after its branch appeared and
 * up to another after its deployment ended before it went live. The task runs only where the lease is held, so a
 * wake in another replica starts nothing; its holder's next tick takes the event.
 */
export function createPreviewLoop(options: {
  /** One look; answers whether anything is in motion (then it looks again soon, else at the next tick). */
  check: () => Promise<boolean>;
  intervalMs: number;
  pollMs: number;
}) {
  let woken = false;
  let halted = false;
  let endPause: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || halted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        endPause = undefined;
        resolve();
      }
      endPause = done;
    });

  return {
    /** The leased tick's task; it ends before the next tick, so the timer's ticks are never skipped. */
    async task() {
      halted = false;
      const until = Date.now() + options.intervalMs - options.pollMs;
      do {
        woken = false;
        const moving = (await options.check()) || woken;
        // At rest nothing is looked at again before the next tick unless woken: an idle control plane asks nothing.
        const left = Math.max(0, until - Date.now());
        await pause(moving ? Math.min(options.pollMs, left) : left);
      } while (!halted && Date.now() < until);
    },
    /** Runs the check at once if this replica's task is under way (it holds the lease); else a no-op. */
    wake() {
      woken = true;
      endPause?.();
    },
    /** Ends a task under way after its current check, for a stop. */
    halt() {
      halted = true;
      endPause?.();
    },
  };
}
