import { everyInterval } from '../scheduling/periodicTask.js';
import { failInterrupted, STALE_AFTER_MS } from './deploymentWorkflow.js';
import type { WorkflowDeps } from './runState.js';

const REAP_EVERY_MS = 10_000;

/**
 * Ends deployments whose worker died (at once, then every 10 s), so none stays "in progress" forever. Every
 * process that runs workers reaps, without a lease: a reaper that died with its lease would hold the others
 * off for the lease's lifetime, and `failInterrupted` lets one caller win each deployment.
 */
export function createDeploymentReaper(deps: WorkflowDeps) {
  async function reapStale() {
    for (const row of await deps.repository.stale(STALE_AFTER_MS)) {
      await failInterrupted(deps, row).catch((error) =>
        deps.logger.warn({ err: error, deploymentId: row.id }, 'reaping a deployment failed'),
      );
    }
  }
  return everyInterval({
    name: 'deployment-reaper',
    logger: deps.logger,
    intervalMs: REAP_EVERY_MS,
    task: reapStale,
    failure: 'looking for deployments of dead workers failed',
  });
}
