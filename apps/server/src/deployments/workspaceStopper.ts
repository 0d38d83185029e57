import type Docker from 'dockerode';
import { listProjectContainers } from '../infra/docker/projectResources.js';
import { unpublishRoutes } from './publishedRoutes.js';
import type { WorkflowDeps } from './runState.js';

/**
 * Stops a workspace without deleting anything: its containers stop (volumes, images and variables stay, so
 * a redeploy brings it back), its routes go, and it is marked stopped. Used when its subscription lapses.
 */
export async function stopWorkspace(deps: WorkflowDeps, userId: string, name: string): Promise<boolean> {
  const workspace = await deps.workspaces.findByName(userId, name);
  if (!workspace) return false;
  const vm = workspace.vmId ? await deps.workspaces.findVm(workspace.vmId) : undefined;
  const target = vm ? await deps.vmProvider.connect(vm).catch(() => undefined) : undefined;
  if (target) {
    const containers: Docker.ContainerInfo[] = await listProjectContainers(target.docker, workspace.id);
    for (const container of containers.filter((c) => c.State === 'running')) {
      await target.docker
        .getContainer(container.Id)
        .stop()
        .catch(() => {});
    }
    await target.close().catch(() => {});
  }
  await deps.workspaces.update(workspace.id, { status: 'stopped' });
  await unpublishRoutes(deps, workspace.id).catch(() => {});
  return true;
}
