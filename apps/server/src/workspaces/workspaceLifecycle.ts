import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import type { WorkspaceRow, WorkspacesRepository } from './workspacesRepository.js';

/** Why a workspace's containers stop, as its announcement to the health monitor says (alerts/expectedStops.ts). */
export type WorkspaceStopReason = 'deletion' | 'stop' | 'preview removal';

/**
 * What the other areas keep of a workspace, each removed or stopped by its owner (passed in by the platform, so
 * this folder imports none of them): its running parts — containers, volumes, images, VM, ingress routes, stored
 * files — are the deployments', its variables the env-variables', its stored logs the logs'; the announcement of
 * stops on purpose is the alerts'.
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
  /**
   * Tells the health monitor, before anything stops, that the workspace's containers stop on purpose for at most
   * `boundMs`; the returned function says the work is over (a death after it is a failure again).
   */
  announceStop(
    workspace: WorkspaceRow,
    reason: WorkspaceStopReason,
    boundMs: number,
  ): Promise<() => Promise<void>>;
}

/** The status of a workspace being deleted: the dashboard shows it until the row is gone. */
export const DELETING_STATUS = 'deleting';
/** A delete request answers within this, whatever the engine does; what is left goes on in the background. */
export const DELETE_ANSWER_MS = 25_000;
/** How long a deletion's stops are announced for: its background tries included. */
const DELETION_BOUND_MS = 30 * 60_000;
/** How long a stop's are: every container's stop timeout, one after another. */
const STOP_BOUND_MS = 10 * 60_000;

/**
 * The one owner of a workspace's life: it is made by its first deployment (`claim`), stopped when its
 * subscription lapses, and deleted by its owner — from the web app, the API or the CLI, all through here.
 *
 * A deletion marks the row `deleting`, announces its stops, and removes the workspace's parts; the request answers
 * once that is done or after DELETE_ANSWER_MS, whichever comes first. A removal that has not finished goes on in
 * the background; one that failed (an engine that does not answer, a VM that cannot be reached) is logged and
 * tried again by `resumeDeletions` (the `workspace-deletions` task) until the row is gone.
 */
export function createWorkspaceLifecycle(deps: {
  workspaces: WorkspacesRepository;
  parts: WorkspaceParts;
  logger: Logger;
}) {
  const { workspaces, parts, logger } = deps;
  /** Removals running in this process, by workspace id: a second delete, or the retry task, joins the first. */
  const removals = new Map<string, Promise<void>>();

  async function owned(userId: string, name: string): Promise<WorkspaceRow> {
    const workspace = await workspaces.findByName(userId, name);
    if (!workspace) throw new DomainError('workspace_not_found', 'Workspace not found');
    return workspace;
  }

  /** The removal of a workspace already marked `deleting`, or the one under way; ends with its row gone. */
  function removal(workspace: WorkspaceRow, reason: WorkspaceStopReason): Promise<void> {
    const running = removals.get(workspace.id);
    if (running) return running;
    const run = (async () => {
      // Never ended: the row goes, and a death after it has no workspace to alert.
      await parts.announceStop(workspace, reason, DELETION_BOUND_MS);
      await parts.removeRuntime(workspace);
      for (const removeRecords of parts.removeRecords) await removeRecords(workspace);
      await workspaces.delete(workspace.id);
    })().finally(() => removals.delete(workspace.id));
    removals.set(workspace.id, run);
    return run;
  }

  /** Refuses under a deployment; otherwise marks the row `deleting` (shown at once, never watched again). */
  async function markDeleting(workspace: WorkspaceRow): Promise<WorkspaceRow> {
    if (await parts.deploying(workspace.userId, workspace.name)) {
      throw new DomainError(
        'deployment_in_progress',
        `A deployment is running for ${workspace.name}; wait for it to finish`,
      );
    }
    await workspaces.update(workspace.id, { status: DELETING_STATUS });
    return { ...workspace, status: DELETING_STATUS };
  }

  const logFailure = (workspace: WorkspaceRow) => (error: unknown) =>
    logger.warn(
      { err: error, workspace: workspace.id, name: workspace.name },
      'deleting a workspace did not finish; it is tried again in the background',
    );

  /**
   * Marks the workspace `deleting` and removes it, waiting at most DELETE_ANSWER_MS: `done`, or `pending` (it goes
   * on in the background). A removal that fails is logged and tried again by `resumeDeletions`; `failFast`
   * rethrows a failure that comes within the wait.
   */
  async function removeWithin(
    workspace: WorkspaceRow,
    reason: WorkspaceStopReason,
    options: { failFast: boolean },
  ): Promise<'done' | 'pending'> {
    const removing = removal(await markDeleting(workspace), reason);
    removing.catch(logFailure(workspace));
    let timer: NodeJS.Timeout | undefined;
    const answerBy = new Promise<'pending'>((resolve) => {
      timer = setTimeout(() => resolve('pending'), DELETE_ANSWER_MS);
    });
    const outcome = removing.then(
      () => 'done' as const,
      (error: unknown) => {
        if (options.failFast) throw error;
        return 'pending' as const;
      },
    );
    return Promise.race([outcome, answerBy]).finally(() => clearTimeout(timer));
  }

  return {
    /** Stops a workspace (a lapsed subscription); false when there is no such workspace. */
    async stop(userId: string, name: string): Promise<boolean> {
      const workspace = await workspaces.findByName(userId, name);
      if (!workspace) return false;
      const stopped = await parts.announceStop(workspace, 'stop', STOP_BOUND_MS);
      try {
        await parts.stopRuntime(workspace);
        await workspaces.update(workspace.id, { status: 'stopped' });
      } finally {
        await stopped();
      }
      return true;
    },

    /**
     * Removes containers, volumes, networks, images, routes, the VM, the variables, the logs and the workspace;
     * answers within DELETE_ANSWER_MS, the rest going on in the background.
     */
    async delete(user: { id: string }, name: string) {
      const outcome = await removeWithin(await owned(user.id, name), 'deletion', { failFast: false });
      return {
        success: true as const,
        message:
          outcome === 'done'
            ? `Workspace ${name} deleted`
            : `Workspace ${name} is being deleted; what is left of it is removed in the background`,
      };
    },

    /**
     * The same for a workspace that may not exist (a preview never deployed): nothing to do then. Waits as long as
     * a delete request does; a failure within that time is thrown (its caller tries again), a removal still under
     * way goes on in the background.
     */
    async removeIfPresent(
      userId: string,
      name: string,
      reason: WorkspaceStopReason = 'deletion',
    ): Promise<void> {
      const workspace = await workspaces.findByName(userId, name);
      if (workspace) await removeWithin(workspace, reason, { failFast: true });
    },

    /**
     * Finishes the deletions that did not: a removal that failed, or one a restart interrupted. Run by the
     * `workspace-deletions` task, in one replica.
     */
    async resumeDeletions(): Promise<void> {
      for (const workspace of await workspaces.listByStatus(DELETING_STATUS)) {
        if (removals.has(workspace.id)) continue;
        await removal(workspace, 'deletion').catch(logFailure(workspace));
      }
    },
  };
}

export type WorkspaceLifecycle = ReturnType<typeof createWorkspaceLifecycle>;
