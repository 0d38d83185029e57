/**
 * What the preview deployer's leased one-second tick (scheduling/scheduleCatalogue.ts) runs: `check`, then, while
 * a preview is in motion, again every `pollMs` until just before the next tick, and at once when woken (a GitHub delivery recorded in this
 * replica). Measured with bench/previews.ts, a preview otherwise waited up to a second after its branch appeared
 * and up to another after its deployment ended (the median was 0.9 s) before it went live. The task runs only
 * where the lease is held, so a wake in another replica starts nothing; its holder's next poll takes the event.
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
        const moving = await options.check();
        // At rest nothing is looked at again before the next tick: an idle control plane asks nothing more.
        if (!moving && !woken) return;
        await pause(Math.max(0, Math.min(options.pollMs, until - Date.now())));
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
