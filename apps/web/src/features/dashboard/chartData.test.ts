import { describe, expect, it } from 'vitest';
import { lastHourSamples } from './chartData';

describe('lastHourSamples', () => {
  it('keeps the last hour, oldest first, and drops bad timestamps', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    const points = lastHourSamples(
      [
        { ts: '2025-01-01T11:59:00Z', cpu: 3, memory: 40 },
        { ts: '2025-01-01T10:30:00Z', cpu: 9, memory: 9 },
        { ts: '2025-01-01T11:10:00Z', cpu: 1, memory: 20 },
        { ts: 'nope', cpu: 1, memory: 1 },
      ],
      now,
    );
    expect(points.map((p) => p.cpu)).toEqual([1, 3]);
  });
});
