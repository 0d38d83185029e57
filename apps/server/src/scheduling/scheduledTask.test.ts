import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCHEDULE } from './scheduleCatalogue.js';
import { scheduledTask } from './scheduledTask.js';

describe('the schedule catalogue', () => {
  afterEach(() => void vi.useRealTimers());

  it('runs a task on its catalogue timing: the first run one interval late, failures logged with its message', async () => {
    vi.useFakeTimers();
    const warnings: Record<string, unknown>[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    let runs = 0;
    const loop = scheduledTask('log-prune', {
      logger,
      task: async () => {
        runs++;
        throw new Error('disk gone');
      },
    });

    await loop.start();
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(SCHEDULE['log-prune'].everyMs);
    expect(runs).toBe(1);
    expect(warnings).toEqual([
      expect.objectContaining({ task: 'log-prune', msg: SCHEDULE['log-prune'].failure }),
    ]);
    await loop.stop();
  });

  it('takes a shorter interval when one is given (tests and the config)', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const loop = scheduledTask('health-checks', {
      logger: pino({ level: 'silent' }),
      intervalMs: 10,
      task: async () => void runs++,
    });
    await loop.start();
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(30);
    expect(runs).toBe(4);
    await loop.stop();
  });
});
