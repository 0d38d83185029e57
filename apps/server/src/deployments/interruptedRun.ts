import path from 'node:path';
import { PLATFORM_RESTARTED_MESSAGE } from '@slipway/contract';
import { abandonGreen } from '../rollout/blueGreen.js';
import { closeTarget } from '../vm-providers/vmProvider.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { createBuildLog } from './buildLog.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import type { DeploymentRow } from './deploymentRepository.js';
import { connectForCleanUp } from './engineConnection.js';
import { removeLeftovers, removeWorkDir } from './leftovers.js';
import { publishStatus } from './stepProgress.js';

/**
 * What a deployment that died with its worker left on the VM: a green copy goes (the routes on record back
 * first), a first deployment's containers go; true when a redeploy's containers had replaced the serving
 * version's.
 */
async function undoOnEngine(deps: DeploymentDeps, failed: DeploymentRow, workspace: WorkspaceRow) {
  const firstDeploy = (await deps.repository.completedForWorkspace(workspace.id)).length === 0;
  const vm = workspace.vmId ? await deps.workspaces.findVm(workspace.vmId) : undefined;
  const target = await connectForCleanUp(deps, vm);
  let replacedServing = false;
  if (target) {
    const engine = deps.engineFor(target, workspace);
    await abandonGreen(deps, engine, workspace);
    if (firstDeploy) {
      await removeLeftovers(deps, engine, workspace.id);
    } else {
      // A redeploy that died after starting containers left them in place of the serving version.
      const startedAt = failed.startedAt?.getTime() ?? Number.POSITIVE_INFINITY;
      const replicas = await engine.replicas('serving').catch((error) => {
        deps.logger.warn(
          { err: error, workspaceId: workspace.id },
          "listing an interrupted redeploy's containers failed",
        );
        return [];
      });
      replacedServing = replicas.some((replica) => replica.createdAt.getTime() >= startedAt);
    }
    await closeTarget(target);
  }
  await deps.workspaces.update(workspace.id, {
    status: firstDeploy ? 'failed' : 'live',
    lastError: PLATFORM_RESTARTED_MESSAGE,
    lastErrorTime: new Date(),
  });
  return replacedServing;
}

/**
 * Ends a deployment whose worker died; only one caller wins the transition and cleans up. Returns the ended
 * deployment when its containers had replaced the serving version: the last good version must start again.
 */
export async function failInterrupted(
  deps: DeploymentDeps,
  row: DeploymentRow,
): Promise<DeploymentRow | undefined> {
  const failed = await deps.repository.transition(row.id, ['running', 'queued'], {
    status: 'failed',
    error: PLATFORM_RESTARTED_MESSAGE,
    finishedAt: new Date(),
    steps: row.steps.map((step) =>
      step.status === 'in_progress'
        ? {
            ...step,
            status: 'failed',
            error: PLATFORM_RESTARTED_MESSAGE,
            finishedAt: new Date().toISOString(),
          }
        : step,
    ),
    metadata: { ...row.metadata, failure_reason: PLATFORM_RESTARTED_MESSAGE },
  });
  if (!failed) return undefined;
  const workspace = failed.workspaceId ? await deps.workspaces.findById(failed.workspaceId) : undefined;
  const replacedServing = workspace ? await undoOnEngine(deps, failed, workspace) : false;
  const log = createBuildLog({
    db: deps.db,
    pubsub: deps.pubsub,
    userId: failed.userId,
    workspaceName: failed.workspaceName,
    deploymentId: failed.id,
    redact: (text) => text,
    onError: (error) =>
      deps.logger.warn({ err: error, deploymentId: failed.id }, 'storing build log lines failed'),
  });
  log.write(`Deployment failed: ${PLATFORM_RESTARTED_MESSAGE}`);
  if (replacedServing)
    log.write('Its containers had replaced the serving version: starting the last good version again');
  await log.end();
  // Its checkout is the workspace's (leftovers.ts): the next deployment's clone or the workspace's deletion
  // removes it, so a deployment started meanwhile keeps its own.
  await removeWorkDir(deps, path.join(deps.workRoot, failed.id));
  await publishStatus(deps, failed, 'finished');
  return replacedServing ? failed : undefined;
}
