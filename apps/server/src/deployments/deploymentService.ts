import { randomUUID } from 'node:crypto';
import {
  DEFAULT_VM_SIZE,
  DEPLOYMENT_CANCELLED_MESSAGE,
  type StartDeploymentRequest,
  type StartDeploymentResponse,
} from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { deployments } from '../infra/db/schema.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { DurableRuns } from '../jobs/durableRuns.js';
import type { UserRow } from '../users/usersRepository.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { createAdminVmOperations } from './adminVmOperations.js';
import {
  ACTIVE_STATUSES,
  type DeploymentRow,
  initialSteps,
  isUniqueViolation,
} from './deploymentRepository.js';
import { deploymentKind } from './deploymentRuns.js';
import { publishStatus } from './deploymentWorkflow.js';
import { EXPECTED_SHA } from './expectedCommit.js';
import { presentDefinition, presentJob, presentStatus } from './presenter.js';
import { listRevisions } from './revisionList.js';
import type { WorkflowDeps } from './runState.js';
import { createWorkflowSessions } from './workflowSessions.js';
import { createWorkspaceRuntime } from './workspaceRuntime.js';

/** A preview's deployment: its workspace's name, the ref to fetch, the commit it must be, the VM size. */
export interface PreviewTarget {
  name: string;
  ref: string;
  sha: string;
  vmSize: string;
}

const sessionNotFound = () => new DomainError('not_found', 'Workflow session not found');

export function createDeploymentService(
  deps: WorkflowDeps & {
    runs: DurableRuns;
    kv: KeyValueStore;
    repoWebUrl: string;
    /** Billing's word on whether this deployment is paid for (throws a DomainError when it is not). */
    authorizeDeployment?: (
      userId: string,
      workspaceName: string,
      vmSize: string,
      subscriptionId?: string | null,
    ) => Promise<{ subscriptionId: string | null }>;
    /** Whether a restore of the workspace's data runs (backups' word; deployments wait for it). */
    restoreRunning?: (workspaceId: string) => Promise<boolean>;
  },
) {
  const { repository } = deps;

  /** A deployment replaces containers a restore is putting data back into: it waits, as a restore waits for it. */
  async function refuseWhileRestoring(workspaceId: string) {
    if (await deps.restoreRunning?.(workspaceId)) {
      throw new DomainError(
        'conflict',
        'A restore of this workspace is running: deploy when it has finished',
      );
    }
  }

  /**
   * The same start sent again (a browser retrying after its connection dropped): the deployment it started
   * answers for it. The user's session id used for another workspace is a conflict.
   */
  async function repeatedStart(
    user: UserRow,
    sessionId: string,
    workspaceName: string,
  ): Promise<StartDeploymentResponse | undefined> {
    const existing = await repository.findBySession(user.id, sessionId);
    if (!existing) return undefined;
    if (existing.workspaceName !== workspaceName) {
      throw new DomainError(
        'conflict',
        'This deployment session was already started; start with a new session id',
      );
    }
    return { success: true, sessionId, deploymentId: existing.id };
  }

  /** Records a queued deployment under the user's session and hands it to the workers. */
  async function enqueueDeployment(
    user: UserRow,
    sessionId: string,
    values: Pick<
      typeof deployments.$inferInsert,
      | 'workspaceId'
      | 'workspaceName'
      | 'workflowType'
      | 'owner'
      | 'repo'
      | 'branch'
      | 'vmSize'
      | 'subscriptionId'
    >,
    metadata: Record<string, unknown> = {},
  ): Promise<StartDeploymentResponse> {
    if (values.workspaceId) await refuseWhileRestoring(values.workspaceId);
    let deploymentId: string;
    try {
      const row = await repository.insert({
        ...values,
        sessionId,
        userId: user.id,
        status: 'queued',
        steps: initialSteps(),
        metadata,
      });
      deploymentId = row.id;
    } catch (error) {
      if (isUniqueViolation(error, 'deployments_one_active_idx')) {
        throw new DomainError(
          'deployment_in_progress',
          `A deployment is already running for ${values.workspaceName}`,
        );
      }
      if (isUniqueViolation(error)) {
        // Someone else's session id answers as an unknown one would: a 409 would tell it exists.
        if (!(await repository.findBySession(user.id, sessionId))) throw sessionNotFound();
        throw new DomainError(
          'conflict',
          'This deployment session was already started; start with a new session id',
        );
      }
      throw error;
    }
    try {
      await deps.runs.enqueue('deployment.run', deploymentId);
    } catch (error) {
      await repository.update(deploymentId, {
        status: 'failed',
        error: 'The deployment could not be queued',
      });
      throw error;
    }
    return { success: true, sessionId, deploymentId };
  }

  /** Starts a deployment of a kept version: no fetch, no build; followed like any other under `sessionId`. */
  async function startRollback(user: UserRow, name: string, deploymentId: string, sessionId: string) {
    const workspace = await deps.workspaces.findByName(user.id, name);
    if (!workspace) throw new DomainError('workspace_not_found', 'Workspace not found');
    const repeated = await repeatedStart(user, sessionId, name);
    if (repeated) return repeated;
    const target = await repository.findById(deploymentId);
    if (!target || target.workspaceId !== workspace.id || target.status !== 'completed') {
      throw new DomainError('not_found', 'That version of the workspace was not found');
    }
    if (!(await deps.plans.has(workspace.id, target.id))) {
      throw new DomainError('conflict', 'That version is no longer kept; it can no longer be rolled back to');
    }
    if (await repository.activeForWorkspace(user.id, name)) {
      throw new DomainError('deployment_in_progress', `A deployment is already running for ${name}`);
    }
    const paid = await deps.authorizeDeployment?.(user.id, name, workspace.vmSize, null);
    return enqueueDeployment(
      user,
      sessionId,
      {
        workspaceId: workspace.id,
        workspaceName: name,
        workflowType: 'rollback',
        owner: workspace.repoOwner,
        repo: workspace.repoName,
        branch: target.branch,
        vmSize: workspace.vmSize,
        subscriptionId: paid?.subscriptionId ?? target.subscriptionId,
      },
      { rollback_of: target.id },
    );
  }

  /**
   * After a restart, a redeploy that died with its containers in place of the serving version: the newest
   * version whose plan is kept starts again, as a rollback the owner sees in the revisions list.
   */
  async function restoreLastGood(interrupted: DeploymentRow) {
    const workspace = interrupted.workspaceId
      ? await deps.workspaces.findById(interrupted.workspaceId)
      : undefined;
    const user = await deps.findUser(interrupted.userId);
    if (!workspace || !user) return;
    for (const version of await repository.completedForWorkspace(workspace.id)) {
      if (await deps.plans.has(workspace.id, version.id)) {
        await startRollback(user, workspace.name, version.id, randomUUID());
        return;
      }
    }
  }
  // The deps with restoreLastGood added, keeping their getters live (the disk threshold follows the config).
  const workflowDeps = Object.defineProperties(
    { restoreLastGood },
    Object.getOwnPropertyDescriptors(deps),
  ) as WorkflowDeps;
  deps.runs.register(deploymentKind(workflowDeps));

  return {
    definition: presentDefinition,

    async start(user: UserRow, request: StartDeploymentRequest): Promise<StartDeploymentResponse> {
      const workspaceName = request.repo;
      const repeated = await repeatedStart(user, request.sessionId, workspaceName);
      if (repeated) return repeated;
      if (await repository.activeForWorkspace(user.id, workspaceName)) {
        throw new DomainError(
          'deployment_in_progress',
          `A deployment is already running for ${workspaceName}`,
        );
      }
      // Fails now (404) rather than in the workflow when the user cannot see the repository.
      await deps.resolveSource(user, request.owner, request.repo);
      const existing = await deps.workspaces.findByName(user.id, workspaceName);
      if (existing) await refuseWhileRestoring(existing.id);
      const redeploy = request.workflowType === 'redeploy' && existing !== undefined;
      const vmSize = redeploy ? existing.vmSize : (request.vmSize ?? existing?.vmSize ?? DEFAULT_VM_SIZE);
      const paid = await deps.authorizeDeployment?.(user.id, workspaceName, vmSize, request.subscriptionId);
      const subscriptionId = request.subscriptionId ?? paid?.subscriptionId ?? null;
      const workspace = await deps.workspaces.upsert({
        userId: user.id,
        name: workspaceName,
        repoOwner: request.owner,
        repoName: request.repo,
        repoUrl: `${deps.repoWebUrl}/${request.owner}/${request.repo}`,
        branch: request.branch,
        vmSize,
      });
      if (!redeploy && workspace.vmSize !== vmSize) await deps.workspaces.update(workspace.id, { vmSize });
      return enqueueDeployment(user, request.sessionId, {
        workspaceId: workspace.id,
        workspaceName,
        workflowType: request.workflowType,
        owner: request.owner,
        repo: request.repo,
        branch: request.branch,
        vmSize,
        subscriptionId,
      });
    },

    revisions: (user: UserRow, name: string) => listRevisions(deps, user, name),

    rollback: startRollback,

    /**
     * Deploys the head of the workspace's branch for its owner, under a new session, because a push asked
     * (deploy-on-push/); throws `deployment_in_progress` while one is active.
     */
    async startPushDeployment(workspace: WorkspaceRow) {
      const user = await deps.findUser(workspace.userId);
      if (!user) throw new DomainError('not_found', 'The owner of the workspace no longer exists');
      // The subscription the last deployment ran under is the one this one continues.
      const previous = (await repository.latestForWorkspace(user.id, workspace.name))?.subscriptionId ?? null;
      const paid = await deps.authorizeDeployment?.(user.id, workspace.name, workspace.vmSize, previous);
      return enqueueDeployment(user, `push-${randomUUID()}`, {
        workspaceId: workspace.id,
        workspaceName: workspace.name,
        workflowType: 'push',
        owner: workspace.repoOwner,
        repo: workspace.repoName,
        branch: workspace.branch,
        vmSize: workspace.vmSize,
        subscriptionId: paid?.subscriptionId ?? previous,
      });
    },

    /**
     * Deploys a pull request's head commit into its preview workspace (made by its first deployment, linked to its
     * parent, paid for by the parent's subscription); `sha` is checked after the fetch, so an approval for one
     * commit never runs another.
     */
    async startPreviewDeployment(parent: WorkspaceRow, preview: PreviewTarget) {
      const user = await deps.findUser(parent.userId);
      if (!user) throw new DomainError('not_found', 'The owner of the workspace no longer exists');
      const existing = await deps.workspaces.findByName(user.id, preview.name);
      if (existing && existing.previewOf !== parent.id) {
        throw new DomainError(
          'conflict',
          `A workspace named ${preview.name} already exists; the preview needs that name`,
        );
      }
      const previous = (await repository.latestForWorkspace(user.id, parent.name))?.subscriptionId ?? null;
      const paid = await deps.authorizeDeployment?.(user.id, parent.name, parent.vmSize, previous);
      const workspace = await deps.workspaces.upsert({
        userId: user.id,
        name: preview.name,
        repoOwner: parent.repoOwner,
        repoName: parent.repoName,
        repoUrl: parent.repoUrl,
        branch: preview.ref,
        vmSize: preview.vmSize,
        previewOf: parent.id,
      });
      const started = await enqueueDeployment(
        user,
        `preview-${randomUUID()}`,
        {
          workspaceId: workspace.id,
          workspaceName: preview.name,
          workflowType: 'push',
          owner: parent.repoOwner,
          repo: parent.repoName,
          branch: preview.ref,
          vmSize: preview.vmSize,
          subscriptionId: paid?.subscriptionId ?? previous,
        },
        { [EXPECTED_SHA]: preview.sha },
      );
      return { ...started, workspaceId: workspace.id, userId: user.id };
    },

    /** Cancels a deployment by id for the platform's own reasons (a newer preview commit, a closed pull request). */
    async cancelById(deploymentId: string) {
      const row = await repository.findById(deploymentId);
      const user = row ? await deps.findUser(row.userId) : undefined;
      if (!row || !user || !ACTIVE_STATUSES.includes(row.status)) return false;
      await this.cancel(user, row.sessionId);
      return true;
    },

    async status(user: UserRow, sessionId: string) {
      const row = await repository.findBySession(user.id, sessionId);
      if (!row) throw sessionNotFound();
      return presentStatus(row);
    },

    /**
     * Stops the session's deployment: a queued one ends at once; a running one is aborted by the worker running
     * it (told over pub/sub, whichever replica that is), which puts back what was serving.
     */
    async cancel(user: UserRow, sessionId: string) {
      const row = await repository.findBySession(user.id, sessionId);
      if (!row) throw sessionNotFound();
      if (!ACTIVE_STATUSES.includes(row.status)) {
        throw new DomainError('conflict', 'This deployment has already ended');
      }
      const ended = await repository.transition(row.id, ['queued'], {
        status: 'failed',
        error: DEPLOYMENT_CANCELLED_MESSAGE,
        finishedAt: new Date(),
        metadata: { ...row.metadata, failure_reason: DEPLOYMENT_CANCELLED_MESSAGE },
      });
      if (ended) await publishStatus(deps, ended, 'finished');
      else await deps.runs.cancel('deployment.run', row.id, DEPLOYMENT_CANCELLED_MESSAGE);
      return { success: true as const, message: DEPLOYMENT_CANCELLED_MESSAGE };
    },

    /** The deployment behind a session, for the SSE stream (404 for someone else's session). */
    async deploymentForSession(user: UserRow, sessionId: string) {
      const row = await repository.findBySession(user.id, sessionId);
      if (!row) throw sessionNotFound();
      return row;
    },

    async job(user: UserRow, id: string) {
      const row = /^[0-9a-f-]{36}$/i.test(id) ? await repository.findById(id) : undefined;
      if (!row || row.userId !== user.id) throw new DomainError('not_found', 'Deployment job not found');
      return presentJob(row);
    },

    async latestDeployment(user: UserRow, workspaceName: string) {
      return repository.latestForWorkspace(user.id, workspaceName);
    },

    reloadDeployment: (id: string) => repository.findById(id),

    async findOwnedWorkspace(user: UserRow, name: string) {
      const workspace = await deps.workspaces.findByName(user.id, name);
      if (!workspace) throw new DomainError('workspace_not_found', 'Workspace not found');
      return workspace;
    },

    sessionState: createWorkflowSessions(deps.kv),

    /** The workspace's running parts, for the one owner of its life (workspaces/workspaceLifecycle.ts). */
    runtime: createWorkspaceRuntime(deps, repository),

    adminVmOperations: createAdminVmOperations(deps),
  };
}

export type DeploymentService = ReturnType<typeof createDeploymentService>;
