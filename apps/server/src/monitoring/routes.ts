import type { RouteHandlers } from '../http/registerRoutes.js';
import type { SystemHealthService } from './systemHealthService.js';

/** A workspace's system health: the monitoring stack's status, readings, and its deployment. */
export function monitoringRoutes(deps: { systemHealth: SystemHealthService }) {
  const { systemHealth } = deps;
  return {
    systemHealthStatus: ({ user, params }) => systemHealth.status(user.id, params.workspace),
    systemInfo: ({ user, params }) => systemHealth.info(user.id, params.workspace),
    vmHealthMetrics: ({ user, params }) => systemHealth.vmHealth(user.id, params.workspace),
    systemHealthContainers: ({ user, params }) => systemHealth.containers(user.id, params.workspace),
    deploySystemHealth: ({ user, params }) => systemHealth.deploy(user.id, params.workspace),
  } satisfies Partial<RouteHandlers>;
}
