import { describe, expect, it } from 'vitest';
import { alertRates, hasStatistics, splitRecent } from './alertStats';

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
    const none = { total_alerts: 0, active_alerts: 0, resolved_alerts: 0, avg_response_time: 0 };
    expect(alertRates(none)).toEqual({ resolutionRate: 0, activeRate: 0, avgResponseMinutes: 0 });
    expect(hasStatistics(none)).toBe(false);
    expect(hasStatistics(null)).toBe(false);
  });

  it('shows 10 recent alerts and counts the rest', () => {
    const list = Array.from({ length: 13 }, (_, i) => i);
    expect(splitRecent(list)).toEqual({ shown: list.slice(0, 10), more: 3 });
    expect(splitRecent([1])).toEqual({ shown: [1], more: 0 });
  });
});
