/** A client requesting a URL all along a measurement, as a user's browser would during redeploys. */

/** A browser waits far longer; a request held this long by the proxy during a swap still counts as failed. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface Tally {
  sent: number;
  ok: number;
  slowestMs: number;
  failed: Record<string, number>;
  bodies: Set<string>;
}

export const failedCount = (tally: Tally) => Object.values(tally.failed).reduce((a, b) => a + b, 0);

/** Requests `get` every `everyMs` until stopped; counts answers by kind (a 200 is the only success). */
export function startRequestLoop(get: () => Promise<{ status: number; body: string }>, everyMs = 100) {
  const tally: Tally = { sent: 0, ok: 0, slowestMs: 0, failed: {}, bodies: new Set() };
  const fail = (kind: string) => {
    tally.failed[kind] = (tally.failed[kind] ?? 0) + 1;
  };
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    while (!stopped) {
      tally.sent++;
      const sentAt = performance.now();
      const request = Promise.race([
        get(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), REQUEST_TIMEOUT_MS).unref(),
        ),
      ])
        .then((answer) => {
          if (answer.status === 200) {
            tally.ok++;
            tally.slowestMs = Math.max(tally.slowestMs, performance.now() - sentAt);
            tally.bodies.add(answer.body.trim());
          } else fail(`HTTP ${answer.status}`);
        })
        .catch((error: Error) => fail(error.message === 'timeout' ? 'timeout' : 'refused/reset'));
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    tally,
    async stop() {
      stopped = true;
      await loop;
      await Promise.all(inFlight);
      return tally;
    },
  };
}
