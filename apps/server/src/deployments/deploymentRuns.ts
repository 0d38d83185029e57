import type { DurableKind } from '../jobs/durableRuns.js';
import type { Deploy } from './deploy.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import { ACTIVE_STATUSES, type DeploymentRow } from './deploymentRepository.js';
import { runDeployment } from './deploymentRun.js';
import { failInterrupted } from './interruptedRun.js';

/**
 * Deployments as durable runs: taken from `queued` to `running` once; after a crash taken again by the home's
 * reaper and ended with the restart's reason (`failInterrupted`); when the dead run had replaced the serving
 * version, the reaper deploys the last good version again (a `restore-last-good` trigger).
 */
export function deploymentKind(
  deps: DeploymentDeps,
  deploy: Deploy,
): DurableKind<'deployment.run', DeploymentRow> {
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
    async resume(row) {
      const interrupted = await failInterrupted(deps, row);
      if (!interrupted) return;
      await deploy({ kind: 'restore-last-good', interrupted }).catch((error) =>
        deps.logger.warn({ err: error, deploymentId: row.id }, 'restoring the last good version failed'),
      );
    },
  };
}
