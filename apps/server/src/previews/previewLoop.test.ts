import { describe, expect, it } from 'vitest';
import { createPreviewLoop } from './previewLoop.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the preview loop', () => {
  it('checks every poll while a preview is in motion, until just before the next tick, so the ticks are never skipped', async () => {
    let checks = 0;
    const loop = createPreviewLoop({
      check: async () => {
        checks++;
        return true;
      },
      intervalMs: 1_000,
      pollMs: 200,
    });
    const started = Date.now();
    await loop.task();
    expect(Date.now() - started).toBeLessThan(5_000); // it ended (a bound, not a speed)
    expect(checks).toBeGreaterThanOrEqual(2);
  });

  it('looks once per tick when every preview is at rest: an idle control plane asks nothing more', async () => {
    let checks = 0;
    const loop = createPreviewLoop({
      check: async () => {
        checks++;
        return false;
      },
      intervalMs: 300,
      pollMs: 10,
    });
    await loop.task();
    expect(checks).toBe(1);
  });

  it('at rest, a wake (a delivery, a local ref moving) checks at once instead of at the next tick', async () => {
    let checks = 0;
    const loop = createPreviewLoop({
      check: async () => {
        checks++;
        return false;
      },
      intervalMs: 60_000,
      pollMs: 10,
    });
    const task = loop.task();
    await settle();
    expect(checks).toBe(1);
    loop.wake();
    await settle();
    expect(checks).toBe(2);
    loop.halt();
    await task;
    expect(checks).toBe(2);
  });

  it('checks at once when woken, and a halt ends the task without waiting for its next poll', async () => {
    let checks = 0;
    const loop = createPreviewLoop({
      check: async () => {
        checks++;
        return true;
      },
      intervalMs: 60_000,
      pollMs: 30_000,
    });
    const task = loop.task();
    await settle();
    expect(checks).toBe(1);
    loop.wake();
    await settle();
    expect(checks).toBe(2);
    loop.halt();
    await task;
    expect(checks).toBe(2);
  });
});
