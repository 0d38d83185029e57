import { failInterrupted, staleAfterMs } from './deploymentWorkflow.js';
import type { WorkflowDeps } from './runState.js';

/**
 * Ends the deployments whose worker died, so none stays "in progress" forever. The platform runs it as
 * `deployment-reaper` (the schedule catalogue: at once, then every two heartbeats) in every process that runs
 * workers, without a lease: a reaper that died with its lease would hold the others off for the lease's
 * lifetime, and `failInterrupted` lets one caller win each deployment.
 */
export async function reapStaleDeployments(deps: WorkflowDeps): Promise<void> {
  for (const row of await deps.repository.stale(staleAfterMs(deps))) {
    await failInterrupted(deps, row).catch((error) =>
      deps.logger.warn({ err: error, deploymentId: row.id }, 'reaping a deployment failed'),
    );
  }
}
