import { describe, expect, it } from 'vitest';
import { alertRates, hasStatistics, splitRecent } from './alertStats';
import { formatBytes, formatPercent } from './formatBytes';

describe('formatBytes', () => {
  it('uses B, KB, MB, GB with one decimal', () => {
    expect(formatBytes(0)).toBe('0.0 B');
    expect(formatBytes(512)).toBe('512.0 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(1024 ** 3 * 2.25)).toBe('2.3 GB');
    expect(formatBytes(1024 ** 4)).toBe('1024.0 GB');
  });

  it('shows a dash for missing or bad values', () => {
    expect(formatBytes(undefined)).toBe('—');
    expect(formatBytes(Number.NaN)).toBe('—');
    expect(formatBytes(-1)).toBe('—');
  });

  it('formats percentages with one decimal', () => {
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(null)).toBe('—');
  });
});

describe('alertRates', () => {
  it('computes resolution and active rates as % of total', () => {
    expect(
      alertRates({ total_alerts: 8, active_alerts: 2, resolved_alerts: 6, avg_response_time: 3.456 }),
    ).toEqual({
      resolutionRate: 75,
      activeRate: 25,
      avgResponseMinutes: 3.5,
    });
  });

  it('is 0 with no alerts', () => {
    expect(
      alertRates({ total_alerts: 0, active_alerts: 0, resolved_alerts: 0, avg_response_time: 0 }),
    ).toEqual({
      resolutionRate: 0,
      activeRate: 0,
      avgResponseMinutes: 0,
    });
    expect(
      hasStatistics({ total_alerts: 0, active_alerts: 0, resolved_alerts: 0, avg_response_time: 0 }),
    ).toBe(false);
    expect(hasStatistics(null)).toBe(false);
  });

  it('shows 10 recent alerts and counts the rest', () => {
    const list = Array.from({ length: 13 }, (_, i) => i);
    expect(splitRecent(list)).toEqual({ shown: list.slice(0, 10), more: 3 });
    expect(splitRecent([1])).toEqual({ shown: [1], more: 0 });
  });
});
