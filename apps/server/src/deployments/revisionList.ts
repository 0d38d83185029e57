import { triggerOf, type WorkspaceRevisions } from '@slipway/contract';
import type { UserRow } from '../users/usersRepository.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import { ownedWorkspace } from './ownedWorkspace.js';
import { rollbackOf } from './rollbackOf.js';

/** The workspace's successful deployments, newest first, and which of them can be rolled back to. */
export async function listRevisions(
  deps: DeploymentDeps,
  user: UserRow,
  name: string,
): Promise<WorkspaceRevisions> {
  const workspace = await ownedWorkspace(deps.workspaces, user, name);
  const rows = await deps.repository.completedForWorkspace(workspace.id);
  const revisions = await Promise.all(
    rows.map(async (row, index) => ({
      deployment_id: row.id,
      commit_sha: row.commitSha,
      branch: row.branch,
      trigger: triggerOf(row.workflowType),
      rollback_of: rollbackOf(row) ?? null,
      deployed_by: user.login,
      deployed_at: (row.finishedAt ?? row.createdAt).toISOString(),
      duration_seconds:
        row.startedAt && row.finishedAt
          ? Math.round((row.finishedAt.getTime() - row.startedAt.getTime()) / 100) / 10
          : null,
      current: index === 0 && workspace.status === 'live',
      can_roll_back: index > 0 && (await deps.plans.has(workspace.id, row.id)),
    })),
  );
  return { owner: workspace.repoOwner, repo: workspace.repoName, revisions, kept: deps.keepVersions };
}
