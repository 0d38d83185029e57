import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { everyInterval } from './periodicTask.js';

/** A pino logger whose warnings land in `warnings`. */
function recordingLogger() {
  const warnings: Record<string, unknown>[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
  return { logger, warnings };
}

describe('everyInterval', () => {
  afterEach(() => void vi.useRealTimers());

  it('runs at once, never overlaps runs, logs a failed run with its name, and stops', async () => {
    vi.useFakeTimers();
    const { logger, warnings } = recordingLogger();
    let runs = 0;
    let concurrent = 0;
    let overlapped = false;
    let releaseFirst: () => void = () => {};
    const loop = everyInterval({
      name: 'test-sweeper',
      logger,
      intervalMs: 5,
      failure: 'test sweep failed',
      task: async () => {
        runs++;
        concurrent++;
        overlapped ||= concurrent > 1;
        const first = runs === 1;
        if (first) await new Promise<void>((resolve) => (releaseFirst = resolve));
        concurrent--;
        if (first) throw new Error('first run fails');
      },
    });

    const firstRun = loop.start();
    // Ten intervals pass while the first run hangs: none starts beside it.
    await vi.advanceTimersByTimeAsync(50);
    expect(runs).toBe(1);
    releaseFirst();
    await firstRun;
    // The intervals that passed meanwhile were skipped, not queued to run one after another.
    expect(runs).toBe(1);
    expect(warnings).toEqual([
      expect.objectContaining({
        task: 'test-sweeper',
        msg: 'test sweep failed',
        err: expect.objectContaining({ message: 'first run fails' }),
      }),
    ]);
    // The failure did not end the loop.
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBeGreaterThan(1);
    expect(overlapped).toBe(false);

    await loop.stop();
    const stoppedAt = runs;
    await vi.advanceTimersByTimeAsync(50);
    expect(runs).toBe(stoppedAt);
  });

  it('with firstRunAfterInterval, waits one interval before the first run', async () => {
    vi.useFakeTimers();
    const { logger } = recordingLogger();
    let runs = 0;
    const loop = everyInterval({
      name: 'test-pruner',
      logger,
      intervalMs: 10,
      failure: 'test prune failed',
      firstRunAfterInterval: true,
      task: async () => void runs++,
    });
    await loop.start();
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBe(1);
    await loop.stop();
  });
});
