import { DEPLOYMENT_CANCELLED_MESSAGE } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { DurableRuns } from '../jobs/durableRuns.js';
import type { UserRow } from '../users/usersRepository.js';
import { createAdminVmOperations } from './adminVmOperations.js';
import type { Deploy } from './deploy.js';
import { sessionNotFound } from './deploy.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import { ACTIVE_STATUSES } from './deploymentRepository.js';
import { ownedWorkspace } from './ownedWorkspace.js';
import { presentDefinition, presentJob, presentStatus } from './presenter.js';
import { listRevisions } from './revisionList.js';
import { publishStatus } from './stepProgress.js';
import { createWorkflowSessions } from './workflowSessions.js';
import { createWorkspaceRuntime } from './workspaceRuntime.js';

/** What the routes and the other areas ask of deployments: `deploy` starts one; the rest reads, follows, cancels. */
export function createDeploymentService(
  deps: DeploymentDeps & { deploy: Deploy; runs: DurableRuns; kv: KeyValueStore },
) {
  const { repository } = deps;

  return {
    definition: presentDefinition,

    /** Starts a deployment for any trigger (deployTrigger.ts). */
    deploy: deps.deploy,

    revisions: (user: UserRow, name: string) => listRevisions(deps, user, name),

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

    findOwnedWorkspace: (user: UserRow, name: string) => ownedWorkspace(deps.workspaces, user, name),

    sessionState: createWorkflowSessions(deps.kv),

    /** The workspace's running parts, for the one owner of its life (workspaces/workspaceLifecycle.ts). */
    runtime: createWorkspaceRuntime(deps, repository),

    adminVmOperations: createAdminVmOperations(deps),
  };
}

export type DeploymentService = ReturnType<typeof createDeploymentService>;
