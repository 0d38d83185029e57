import type Docker from 'dockerode';
import { listProjectContainers } from '../infra/docker/projectResources.js';
import { closeTarget } from '../vm-providers/vmProvider.js';
import { connectForCleanUp } from './engineConnection.js';
import { removeRoutes } from './leftovers.js';
import type { WorkflowDeps } from './runState.js';

/**
 * Stops a workspace without deleting anything: its containers stop (volumes, images and variables stay, so
 * a redeploy brings it back), its routes go, and it is marked stopped. Used when its subscription lapses.
 */
export async function stopWorkspace(deps: WorkflowDeps, userId: string, name: string): Promise<boolean> {
  const workspace = await deps.workspaces.findByName(userId, name);
  if (!workspace) return false;
  const vm = workspace.vmId ? await deps.workspaces.findVm(workspace.vmId) : undefined;
  const target = await connectForCleanUp(deps, vm);
  if (target) {
    const containers: Docker.ContainerInfo[] = await listProjectContainers(target.docker, workspace.id);
    for (const container of containers.filter((c) => c.State === 'running')) {
      await target.docker
        .getContainer(container.Id)
        .stop()
        .catch((error) =>
          deps.logger.warn(
            { err: error, workspaceId: workspace.id, containerId: container.Id },
            'stopping a container failed',
          ),
        );
    }
    await closeTarget(target);
  }
  await deps.workspaces.update(workspace.id, { status: 'stopped' });
  await removeRoutes(deps, workspace.id, 'stop');
  return true;
}
