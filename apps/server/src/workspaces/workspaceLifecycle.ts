import { DomainError } from '../domain/errors.js';
import type { WorkspaceRow, WorkspacesRepository } from './workspacesRepository.js';

/**
 * What the other areas keep of a workspace, each removed or stopped by its owner (passed in by the platform, so
 * this folder imports none of them): its running parts — containers, volumes, images, VM, ingress routes, stored
 * files — are the deployments', its variables the env-variables', its stored logs the logs'.
 */
export interface WorkspaceParts {
  /** Whether a deployment of it is queued or running: nothing is stopped or removed under one. */
  deploying(userId: string, name: string): Promise<boolean>;
  /** Its containers stopped (volumes, images and variables kept, so a redeploy brings it back), routes gone. */
  stopRuntime(workspace: WorkspaceRow): Promise<void>;
  /** Everything it runs and stores on its VM and in DATA_DIR, its routes, and its deployment history. */
  removeRuntime(workspace: WorkspaceRow): Promise<void>;
  /** The records other areas keep under its name (variables, stored logs). */
  removeRecords: ((workspace: WorkspaceRow) => Promise<unknown>)[];
}

/**
 * The one owner of a workspace's life: it is made by its first deployment (`claim`), stopped when its
 * subscription lapses, and deleted by its owner — from the web app, the API or the CLI, all through here.
 */
export function createWorkspaceLifecycle(deps: { workspaces: WorkspacesRepository; parts: WorkspaceParts }) {
  const { workspaces, parts } = deps;

  async function owned(userId: string, name: string): Promise<WorkspaceRow> {
    const workspace = await workspaces.findByName(userId, name);
    if (!workspace) throw new DomainError('workspace_not_found', 'Workspace not found');
    return workspace;
  }

  async function remove(workspace: WorkspaceRow) {
    if (await parts.deploying(workspace.userId, workspace.name)) {
      throw new DomainError(
        'deployment_in_progress',
        `A deployment is running for ${workspace.name}; wait for it to finish`,
      );
    }
    await parts.removeRuntime(workspace);
    for (const removeRecords of parts.removeRecords) await removeRecords(workspace);
    await workspaces.delete(workspace.id);
  }

  return {
    /** Stops a workspace (a lapsed subscription); false when there is no such workspace. */
    async stop(userId: string, name: string): Promise<boolean> {
      const workspace = await workspaces.findByName(userId, name);
      if (!workspace) return false;
      await parts.stopRuntime(workspace);
      await workspaces.update(workspace.id, { status: 'stopped' });
      return true;
    },

    /** Removes containers, volumes, networks, images, routes, the VM, the variables, the logs and the workspace. */
    async delete(user: { id: string }, name: string) {
      await remove(await owned(user.id, name));
      return { success: true as const, message: `Workspace ${name} deleted` };
    },

    /** The same for a workspace that may not exist (a preview never deployed): nothing to do then. */
    async removeIfPresent(userId: string, name: string): Promise<void> {
      const workspace = await workspaces.findByName(userId, name);
      if (workspace) await remove(workspace);
    },
  };
}

export type WorkspaceLifecycle = ReturnType<typeof createWorkspaceLifecycle>;
