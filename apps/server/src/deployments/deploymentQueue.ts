import type { StartDeploymentResponse } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { deployments } from '../infra/db/schema.js';
import type { DurableRuns } from '../jobs/durableRuns.js';
import type { UserRow } from '../users/usersRepository.js';
import { type DeploymentRepository, initialSteps, isUniqueViolation } from './deploymentRepository.js';
import type { DeploymentStarted } from './deployTrigger.js';

export const sessionNotFound = () => new DomainError('not_found', 'Workflow session not found');

/** The columns a trigger decides for its deployment's row. */
export type DeploymentValues = Pick<
  typeof deployments.$inferInsert,
  'workspaceName' | 'workflowType' | 'owner' | 'repo' | 'branch' | 'vmSize' | 'subscriptionId'
> & { workspaceId: string };

/** Records deployments and hands them to the workers; one active deployment per workspace, by a unique index. */
export function createDeploymentQueue(deps: {
  repository: DeploymentRepository;
  runs: DurableRuns;
  /** Whether a restore of the workspace's data runs (backups' word; deployments wait for it). */
  restoreRunning?: ((workspaceId: string) => Promise<boolean>) | undefined;
}) {
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

  return {
    refuseWhileRestoring,

    /**
     * The same start sent again (a browser retrying after its connection dropped): the deployment it started
     * answers for it. The user's session id used for another workspace is a conflict.
     */
    async repeatedStart(
      user: UserRow,
      sessionId: string,
      workspaceName: string,
    ): Promise<DeploymentStarted | undefined> {
      const existing = await repository.findBySession(user.id, sessionId);
      if (!existing) return undefined;
      if (existing.workspaceName !== workspaceName) {
        throw new DomainError(
          'conflict',
          'This deployment session was already started; start with a new session id',
        );
      }
      return { sessionId, deploymentId: existing.id, workspaceId: existing.workspaceId ?? '' };
    },

    /** Records a queued deployment under the user's session and hands it to the workers. */
    async enqueue(
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
      return { sessionId, deploymentId, workspaceId: values.workspaceId };
    },
  };
}

/** The API's answer for a deployment started. */
export const startedAnswer = ({ sessionId, deploymentId }: DeploymentStarted): StartDeploymentResponse => ({
  success: true,
  sessionId,
  deploymentId,
});
