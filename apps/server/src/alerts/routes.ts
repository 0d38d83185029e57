import {
  acknowledgeAlertSchema,
  alertStatisticsQuerySchema,
  recentAlertsQuerySchema,
  resolveAlertSchema,
} from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { AlertsService } from './alertsService.js';

const workspaceParams = z.object({ workspace: z.string().min(1).max(200) });
const alertParams = z.object({ alertId: z.string().min(1).max(100) });

export function alertsRoutes(app: FastifyInstance, deps: { alerts: AlertsService }) {
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/alerts-active/:workspace', guard, async (request) => {
    const { workspace } = parse(workspaceParams, request.params);
    return deps.alerts.active(currentUser(request).id, workspace);
  });

  app.get('/api/alerts-recent/:workspace', guard, async (request) => {
    const { workspace } = parse(workspaceParams, request.params);
    const { hours } = parse(recentAlertsQuerySchema, request.query);
    return deps.alerts.recent(currentUser(request).id, workspace, hours);
  });

  app.get('/api/alerts-statistics/:workspace', guard, async (request) => {
    const { workspace } = parse(workspaceParams, request.params);
    const { days } = parse(alertStatisticsQuerySchema, request.query);
    return deps.alerts.statistics(currentUser(request).id, workspace, days);
  });

  app.post('/api/alert-acknowledge/:alertId', guard, async (request) => {
    const { alertId } = parse(alertParams, request.params);
    const body = parse(acknowledgeAlertSchema, request.body ?? {});
    return deps.alerts.acknowledge(currentUser(request).id, alertId, body.acknowledged_by);
  });

  app.post('/api/alert-resolve/:alertId', guard, async (request) => {
    const { alertId } = parse(alertParams, request.params);
    const body = parse(resolveAlertSchema, request.body ?? {});
    return deps.alerts.resolve(currentUser(request).id, alertId, body.resolved_by);
  });
}
