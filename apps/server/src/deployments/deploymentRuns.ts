import type { DurableKind } from '../jobs/durableRuns.js';
import { ACTIVE_STATUSES, type DeploymentRow } from './deploymentRepository.js';
import { failInterrupted, runDeployment } from './deploymentWorkflow.js';
import type { WorkflowDeps } from './runState.js';

/**
 * Deployments as durable runs: taken from `queued` to `running` once; after a crash taken again by the home's
 * reaper and ended with the restart's reason (`failInterrupted`), which starts the last good version again when
 * the dead run had replaced the serving one.
 */
export function deploymentKind(deps: WorkflowDeps): DurableKind<'deployment.run', DeploymentRow> {
  const { repository } = deps;
  return {
    job: 'deployment.run',
    async claim(id, now, staleBefore) {
      const first = await repository.transition(id, ['queued'], {
        status: 'running',
        startedAt: now,
        heartbeatAt: now,
      });
      if (first) return { row: first, resumed: false };
      const again = await repository.takeStale(id, now, staleBefore);
      return again ? { row: again, resumed: true } : undefined;
    },
    beat: (id, now) => repository.heartbeat(id, now),
    stale: async (before) => (await repository.stale(before)).map((row) => row.id),
    ended: async (id) => {
      const row = await repository.findById(id);
      return !row || !ACTIVE_STATUSES.includes(row.status);
    },
    run: (row, context) => runDeployment(deps, row, context.signal),
    resume: (row) => failInterrupted(deps, row),
  };
}
