import type { AlertStatistics } from '@slipway/contract';

export interface AlertRates {
  /** Resolved alerts as a percentage of the total, rounded to a whole number. */
  resolutionRate: number;
  /** Active alerts as a percentage of the total. */
  activeRate: number;
  avgResponseMinutes: number;
}

const percentOf = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 100) : 0);

export function alertRates(stats: AlertStatistics): AlertRates {
  return {
    resolutionRate: percentOf(stats.resolved_alerts, stats.total_alerts),
    activeRate: percentOf(stats.active_alerts, stats.total_alerts),
    avgResponseMinutes: Math.round((stats.avg_response_time || 0) * 10) / 10,
  };
}

/** Spec: the Statistics tab shows 'No Statistics Available' when there is nothing to count. */
export function hasStatistics(stats: AlertStatistics | null | undefined): stats is AlertStatistics {
  return Boolean(stats && stats.total_alerts > 0);
}

/** Recent tab: the first 10 are listed, the rest summarised. */
export const RECENT_ALERTS_SHOWN = 10;

export function splitRecent<T>(alerts: T[]): { shown: T[]; more: number } {
  return {
    shown: alerts.slice(0, RECENT_ALERTS_SHOWN),
    more: Math.max(0, alerts.length - RECENT_ALERTS_SHOWN),
  };
}
