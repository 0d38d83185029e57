import { rm } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import { removeWorkspaceMounts } from '../infra/compose/bindMounts.js';
import { listProjectContainers, removeProjectResources } from '../infra/docker/projectResources.js';
import { unpublishRoutes } from '../rollout/publishedRoutes.js';
import { closeTarget } from '../vm-providers/vmProvider.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import type { DeploymentRepository } from './deploymentRepository.js';
import { connectForCleanUp } from './engineConnection.js';
import { checkoutDirOf, removeRoutes } from './leftovers.js';

/**
 * A workspace's running parts, as the deployments made them: what workspaces/workspaceLifecycle.ts stops and
 * removes through the platform.
 */
export function createWorkspaceRuntime(deps: DeploymentDeps, repository: DeploymentRepository) {
  return {
    deploying: async (userId: string, name: string) =>
      (await repository.activeForWorkspace(userId, name)) !== undefined,

    /** Its containers stop (volumes, images and variables stay, so a redeploy brings it back); its routes go. */
    async stop(workspace: WorkspaceRow) {
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
      await removeRoutes(deps, workspace.id, 'stop');
    },

    /** Containers, volumes, networks, images, the VM, routes, stored files and plans, and its deployment rows. */
    async remove(workspace: WorkspaceRow) {
      const vm = workspace.vmId ? await deps.workspaces.findVm(workspace.vmId) : undefined;
      if (vm) {
        const target = await connectForCleanUp(deps, vm);
        if (target) {
          try {
            await removeProjectResources(target.docker, workspace.id, { volumes: true, images: true });
          } finally {
            await closeTarget(target);
          }
        }
        await deps.vmProvider.delete(vm);
      }
      await unpublishRoutes(deps, workspace.id);
      // Its bind-mounted data lives in DATA_DIR (the work root's parent) and goes with it.
      await removeWorkspaceMounts(path.dirname(deps.workRoot), workspace.id);
      await deps.plans.removeWorkspace(workspace.id);
      await rm(checkoutDirOf(deps.workRoot, workspace.id), { recursive: true, force: true });
      await repository.deleteForWorkspace(workspace.userId, workspace.name);
    },
  };
}

export type WorkspaceRuntime = ReturnType<typeof createWorkspaceRuntime>;
