import { describe, expect, it } from 'vitest';
import { createPreviewLoop } from './previewLoop.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the preview loop', () => {
  it('checks every poll until just before the next tick, so the ticks are never skipped', async () => {
    let checks = 0;
    const loop = createPreviewLoop({ check: async () => void checks++, intervalMs: 1_000, pollMs: 200 });
    const started = Date.now();
    await loop.task();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(checks).toBeGreaterThanOrEqual(2);
  });

  it('checks at once when woken, and a halt ends the task without waiting for its next poll', async () => {
    let checks = 0;
    const loop = createPreviewLoop({ check: async () => void checks++, intervalMs: 60_000, pollMs: 30_000 });
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
