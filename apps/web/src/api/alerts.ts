import type { AlertStatistics, AlertView } from '@slipway/contract';
import { api } from './client';

const enc = encodeURIComponent;

function listOf(data: unknown, key: string): AlertView[] {
  if (Array.isArray(data)) return data as AlertView[];
  const inner = data && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;
  return Array.isArray(inner) ? (inner as AlertView[]) : [];
}

export async function fetchActiveAlerts(workspace: string): Promise<AlertView[]> {
  const { data } = await api.get<unknown>(`/api/alerts-active/${enc(workspace)}`);
  return listOf(data, 'alerts');
}

export const RECENT_ALERT_HOURS = 24;
export const ALERT_STATISTICS_DAYS = 7;

export async function fetchRecentAlerts(workspace: string): Promise<AlertView[]> {
  const { data } = await api.get<unknown>(`/api/alerts-recent/${enc(workspace)}`, {
    params: { hours: RECENT_ALERT_HOURS },
  });
  return listOf(data, 'alerts');
}

export async function fetchAlertStatistics(workspace: string): Promise<AlertStatistics | null> {
  const { data } = await api.get<AlertStatistics | { statistics: AlertStatistics } | null>(
    `/api/alerts-statistics/${enc(workspace)}`,
    { params: { days: ALERT_STATISTICS_DAYS } },
  );
  if (!data) return null;
  return 'statistics' in data ? data.statistics : data;
}

/** Spec: the actor is the fixed value 'user'. */
export async function acknowledgeAlert(alertId: string): Promise<void> {
  await api.post(`/api/alert-acknowledge/${enc(alertId)}`, { acknowledged_by: 'user' });
}

export async function resolveAlert(alertId: string): Promise<void> {
  await api.post(`/api/alert-resolve/${enc(alertId)}`, { resolved_by: 'user' });
}

export const alertKeys = {
  all: (ws: string) => ['alerts', ws] as const,
  active: (ws: string) => ['alerts', ws, 'active'] as const,
  recent: (ws: string) => ['alerts', ws, 'recent'] as const,
  statistics: (ws: string) => ['alerts', ws, 'statistics'] as const,
};
