import type { RolloutEngine } from '../rollout/engine.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import { removeLeftovers, removeRoutes } from './leftovers.js';
import type { RunContext } from './runContext.js';

/**
 * A failed first deployment leaves nothing behind; a failed redeploy keeps what was running (its rollout put
 * the last good version back if it had replaced it). The workspace says how it is left.
 */
export async function cleanUpFailure(
  deps: DeploymentDeps,
  ctx: Pick<RunContext, 'workspace' | 'firstDeploy' | 'log'>,
  engine: RolloutEngine | undefined,
  undone: { servingReplaced: boolean; restored: boolean },
  message: string,
) {
  const { workspace, firstDeploy } = ctx;
  if (firstDeploy && engine) {
    ctx.log.write('Removing the containers and networks this deployment started');
    await removeLeftovers(deps, engine, workspace.id);
    await removeRoutes(deps, workspace.id, 'failed first deployment');
  }
  await deps.workspaces.update(workspace.id, {
    status:
      firstDeploy || (undone.servingReplaced && !undone.restored)
        ? 'failed'
        : workspace.status === 'deploying'
          ? 'live'
          : workspace.status,
    lastError: message,
    lastErrorTime: new Date(),
  });
}
