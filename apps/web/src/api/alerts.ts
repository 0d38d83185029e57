import type { AlertStatistics, AlertView } from '@slipway/contract';
import { callRoute } from './routeClient';
import { useWorkspaceQuery } from './workspaceQuery';

export async function fetchActiveAlerts(workspace: string): Promise<AlertView[]> {
  return callRoute('activeAlerts', { params: { workspace } });
}

export const RECENT_ALERT_HOURS = 24;
export const ALERT_STATISTICS_DAYS = 7;

export async function fetchRecentAlerts(workspace: string): Promise<AlertView[]> {
  return callRoute('recentAlerts', { params: { workspace }, query: { hours: RECENT_ALERT_HOURS } });
}

export async function fetchAlertStatistics(workspace: string): Promise<AlertStatistics> {
  return callRoute('alertStatistics', { params: { workspace }, query: { days: ALERT_STATISTICS_DAYS } });
}

/** Spec: the actor is the fixed value 'user'. */
export async function acknowledgeAlert(alertId: string): Promise<void> {
  await callRoute('acknowledgeAlert', { params: { alertId }, body: { acknowledged_by: 'user' } });
}

export async function resolveAlert(alertId: string): Promise<void> {
  await callRoute('resolveAlert', { params: { alertId }, body: { resolved_by: 'user' } });
}

export const alertKeys = {
  all: (ws: string) => ['alerts', ws] as const,
  active: (ws: string) => ['alerts', ws, 'active'] as const,
  recent: (ws: string) => ['alerts', ws, 'recent'] as const,
  statistics: (ws: string) => ['alerts', ws, 'statistics'] as const,
};

/** Spec: the active alerts refresh every 30 s. */
export const useActiveAlerts = (workspace: string) =>
  useWorkspaceQuery(alertKeys.active, fetchActiveAlerts, workspace, { refetchInterval: 30_000 });

export const useRecentAlerts = (workspace: string, shown: boolean) =>
  useWorkspaceQuery(alertKeys.recent, fetchRecentAlerts, workspace, { enabled: shown });

export const useAlertStatistics = (workspace: string, shown: boolean) =>
  useWorkspaceQuery(alertKeys.statistics, fetchAlertStatistics, workspace, { enabled: shown });
