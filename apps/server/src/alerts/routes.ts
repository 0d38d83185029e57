import type { RouteHandlers } from '../http/registerRoutes.js';
import type { AlertsService } from './alertsService.js';

export function alertsRoutes(deps: { alerts: AlertsService }) {
  const { alerts } = deps;
  return {
    activeAlerts: ({ user, params }) => alerts.active(user.id, params.workspace),
    recentAlerts: ({ user, params, query }) => alerts.recent(user.id, params.workspace, query.hours),
    alertStatistics: ({ user, params, query }) => alerts.statistics(user.id, params.workspace, query.days),
    acknowledgeAlert: ({ user, params, body }) =>
      alerts.acknowledge(user.id, params.alertId, body.acknowledged_by),
    resolveAlert: ({ user, params, body }) => alerts.resolve(user.id, params.alertId, body.resolved_by),
  } satisfies Partial<RouteHandlers>;
}
