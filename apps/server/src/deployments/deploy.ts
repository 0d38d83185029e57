import { randomUUID } from 'node:crypto';
import { DEFAULT_VM_SIZE } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { deployments } from '../infra/db/schema.js';
import type { DurableRuns } from '../jobs/durableRuns.js';
import type { RevisionPlans } from '../rollout/revisionPlans.js';
import type { UserRow } from '../users/usersRepository.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import { initialSteps, isUniqueViolation } from './deploymentRepository.js';
import type { DeploymentStarted, DeployTrigger } from './deployTrigger.js';
import { EXPECTED_SHA } from './expectedCommit.js';
import { ownedWorkspace } from './ownedWorkspace.js';
import { ROLLBACK_OF } from './rollbackOf.js';

/** Billing's word on whether a deployment is paid for (throws a DomainError when it is not). */
export type AuthorizeDeployment = (
  userId: string,
  workspaceName: string,
  vmSize: string,
  subscriptionId?: string | null,
) => Promise<{ subscriptionId: string | null }>;

export const sessionNotFound = () => new DomainError('not_found', 'Workflow session not found');
const alreadyStarted = () =>
  new DomainError('conflict', 'This deployment session was already started; start with a new session id');
const inProgress = (name: string) =>
  new DomainError('deployment_in_progress', `A deployment is already running for ${name}`);

/** The columns a trigger decides for its deployment's row. */
type DeploymentValues = Pick<
  typeof deployments.$inferInsert,
  'workspaceName' | 'workflowType' | 'owner' | 'repo' | 'branch' | 'vmSize' | 'subscriptionId'
> & { workspaceId: string };

/**
 * The one way a deployment starts: `deploy(trigger)` checks what the trigger asks (the workspace, the version,
 * the subscription), records the deployment and hands it to the workers.
 */
export function createDeploy(
  deps: Pick<DeploymentDeps, 'repository' | 'resolveSource' | 'findUser'> & {
    workspaces: WorkspacesRepository;
    plans: Pick<RevisionPlans, 'has'>;
    runs: DurableRuns;
    /** Whether a restore of the workspace's data runs (backups' word; deployments wait for it). */
    restoreRunning?: ((workspaceId: string) => Promise<boolean>) | undefined;
    repoWebUrl: string;
    authorizeDeployment?: AuthorizeDeployment | undefined;
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
  async function repeatedStart(user: UserRow, sessionId: string, workspaceName: string) {
    const existing = await repository.findBySession(user.id, sessionId);
    if (!existing) return undefined;
    if (existing.workspaceName !== workspaceName) throw alreadyStarted();
    return { sessionId, deploymentId: existing.id, workspaceId: existing.workspaceId ?? '' };
  }

  /**
   * Records a queued deployment under the user's session and hands it to the workers; one active deployment per
   * workspace, by a unique index.
   */
  async function enqueue(
    user: UserRow,
    sessionId: string,
    values: DeploymentValues,
    metadata: Record<string, unknown> = {},
  ): Promise<DeploymentStarted> {
    await refuseWhileRestoring(values.workspaceId);
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
      if (isUniqueViolation(error, 'deployments_one_active_idx')) throw inProgress(values.workspaceName);
      if (isUniqueViolation(error)) {
        // Someone else's session id answers as an unknown one would: a 409 would tell it exists.
        if (!(await repository.findBySession(user.id, sessionId))) throw sessionNotFound();
        throw alreadyStarted();
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
    return { sessionId, deploymentId, workspaceId: values.workspaceId };
  }
  const ownerOf = async (userId: string) => {
    const user = await deps.findUser(userId);
    if (!user) throw new DomainError('not_found', 'The owner of the workspace no longer exists');
    return user;
  };
  /** The subscription the workspace's last deployment ran under: the one a deployment the platform starts continues. */
  const lastSubscription = async (user: UserRow, workspaceName: string) =>
    (await repository.latestForWorkspace(user.id, workspaceName))?.subscriptionId ?? null;

  async function manual({ user, request }: Extract<DeployTrigger, { kind: 'manual' }>) {
    const workspaceName = request.repo;
    const repeated = await repeatedStart(user, request.sessionId, workspaceName);
    if (repeated) return repeated;
    if (await repository.activeForWorkspace(user.id, workspaceName)) throw inProgress(workspaceName);
    // Fails now (404) rather than in the run when the user cannot see the repository.
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
    return enqueue(user, request.sessionId, {
      workspaceId: workspace.id,
      workspaceName,
      workflowType: request.workflowType,
      owner: request.owner,
      repo: request.repo,
      branch: request.branch,
      vmSize,
      subscriptionId,
    });
  }

  async function rollback(trigger: Extract<DeployTrigger, { kind: 'rollback' }>) {
    const { user, workspaceName: name, sessionId } = trigger;
    const workspace = await ownedWorkspace(deps.workspaces, user, name);
    const repeated = await repeatedStart(user, sessionId, name);
    if (repeated) return repeated;
    const target = await repository.findById(trigger.deploymentId);
    if (!target || target.workspaceId !== workspace.id || target.status !== 'completed') {
      throw new DomainError('not_found', 'That version of the workspace was not found');
    }
    if (!(await deps.plans.has(workspace.id, target.id))) {
      throw new DomainError('conflict', 'That version is no longer kept; it can no longer be rolled back to');
    }
    if (await repository.activeForWorkspace(user.id, name)) throw inProgress(name);
    const paid = await deps.authorizeDeployment?.(user.id, name, workspace.vmSize, null);
    return enqueue(
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
      { [ROLLBACK_OF]: target.id },
    );
  }

  async function push({ workspace }: Extract<DeployTrigger, { kind: 'push' }>) {
    const user = await ownerOf(workspace.userId);
    const previous = await lastSubscription(user, workspace.name);
    const paid = await deps.authorizeDeployment?.(user.id, workspace.name, workspace.vmSize, previous);
    return enqueue(user, `push-${randomUUID()}`, {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      workflowType: 'push',
      owner: workspace.repoOwner,
      repo: workspace.repoName,
      branch: workspace.branch,
      vmSize: workspace.vmSize,
      subscriptionId: paid?.subscriptionId ?? previous,
    });
  }

  /**
   * Made by its first deployment, linked to its parent, paid for by the parent's subscription; `sha` is checked
   * after the fetch, so an approval for one commit never runs another.
   */
  async function preview({ parent, preview: target }: Extract<DeployTrigger, { kind: 'preview' }>) {
    const user = await ownerOf(parent.userId);
    const existing = await deps.workspaces.findByName(user.id, target.name);
    if (existing && existing.previewOf !== parent.id) {
      throw new DomainError(
        'conflict',
        `A workspace named ${target.name} already exists; the preview needs that name`,
      );
    }
    const previous = await lastSubscription(user, parent.name);
    const paid = await deps.authorizeDeployment?.(user.id, parent.name, parent.vmSize, previous);
    const workspace = await deps.workspaces.upsert({
      userId: user.id,
      name: target.name,
      repoOwner: parent.repoOwner,
      repoName: parent.repoName,
      repoUrl: parent.repoUrl,
      branch: target.ref,
      vmSize: target.vmSize,
      previewOf: parent.id,
    });
    return enqueue(
      user,
      `preview-${randomUUID()}`,
      {
        workspaceId: workspace.id,
        workspaceName: target.name,
        workflowType: 'push',
        owner: parent.repoOwner,
        repo: parent.repoName,
        branch: target.ref,
        vmSize: target.vmSize,
        subscriptionId: paid?.subscriptionId ?? previous,
      },
      { [EXPECTED_SHA]: target.sha },
    );
  }

  async function restoreLastGood({ interrupted }: Extract<DeployTrigger, { kind: 'restore-last-good' }>) {
    const workspace = interrupted.workspaceId
      ? await deps.workspaces.findById(interrupted.workspaceId)
      : undefined;
    if (!workspace) throw new DomainError('workspace_not_found', 'Workspace not found');
    const user = await ownerOf(interrupted.userId);
    for (const version of await repository.completedForWorkspace(workspace.id)) {
      if (await deps.plans.has(workspace.id, version.id)) {
        return rollback({
          kind: 'rollback',
          user,
          workspaceName: workspace.name,
          deploymentId: version.id,
          sessionId: randomUUID(),
        });
      }
    }
    throw new DomainError('not_found', 'No version of the workspace is kept to go back to');
  }

  return function deploy(trigger: DeployTrigger): Promise<DeploymentStarted> {
    switch (trigger.kind) {
      case 'manual':
        return manual(trigger);
      case 'rollback':
        return rollback(trigger);
      case 'push':
        return push(trigger);
      case 'preview':
        return preview(trigger);
      case 'restore-last-good':
        return restoreLastGood(trigger);
    }
  };
}

export type Deploy = ReturnType<typeof createDeploy>;
