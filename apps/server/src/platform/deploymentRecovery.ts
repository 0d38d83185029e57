import type { Logger } from 'pino';
import type { DeploymentsModule } from '../deployments/deploymentsModule.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { scheduledTask, scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';

/**
 * What a worker process runs besides its jobs, on the schedule catalogue's timers: the reaper that ends
 * deployments of dead workers (every process, every two heartbeats) and the restorer of the routes the ingress
 * lost (one replica, by lease).
 */
export function createDeploymentRecovery(deps: {
  deployments: Pick<DeploymentsModule, 'service' | 'routeRestorer'>;
  heartbeatMs: number;
  kv: KeyValueStore;
  logger: Logger;
}) {
  const reaper = scheduledTask('deployment-reaper', {
    logger: deps.logger,
    intervalMs: 2 * deps.heartbeatMs,
    task: deps.deployments.service.reapStale,
  });
  const routes = scheduledWhileLeaseHeld('ingress-routes', {
    kv: deps.kv,
    logger: deps.logger,
    task: deps.deployments.routeRestorer.restoreMissing,
  });
  return {
    /** Answers once the reaper's first look for deployments of dead workers has ended. */
    async startRecovery() {
      await reaper.start();
      routes.start();
    },
    async stop() {
      await reaper.stop();
      await routes.stop();
    },
  };
}
