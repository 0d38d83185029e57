import { scheduledTask } from '../scheduling/scheduledTask.js';
import { failInterrupted, staleAfterMs } from './deploymentWorkflow.js';
import type { WorkflowDeps } from './runState.js';

/**
 * Ends deployments whose worker died (at once, then every two heartbeats), so none stays "in progress" forever. Every
 * process that runs workers reaps, without a lease: a reaper that died with its lease would hold the others
 * off for the lease's lifetime, and `failInterrupted` lets one caller win each deployment.
 */
export function createDeploymentReaper(deps: WorkflowDeps) {
  async function reapStale() {
    for (const row of await deps.repository.stale(staleAfterMs(deps))) {
      await failInterrupted(deps, row).catch((error) =>
        deps.logger.warn({ err: error, deploymentId: row.id }, 'reaping a deployment failed'),
      );
    }
  }
  return scheduledTask('deployment-reaper', {
    logger: deps.logger,
    intervalMs: 2 * deps.heartbeatMs,
    task: reapStale,
  });
}
