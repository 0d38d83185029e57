import type { StartDeploymentResponse } from '@slipway/contract';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { useWorkspaceQuery } from './workspaceQuery';

export const revisionsKey = (workspace: string) => ['workspace-revisions', workspace] as const;

/** GET /api/workspace-revisions/{name}: the workspace's successful deployments, newest first. */
function fetchRevisions(name: string) {
  return failingWith('Could not load the revisions', () =>
    callRoute('workspaceRevisions', { params: { name } }),
  );
}

export const useRevisions = (workspace: string) => useWorkspaceQuery(revisionsKey, fetchRevisions, workspace);

/** POST /api/workspace-rollback/{name}/{deploymentId}: starts the rollback under `sessionId`. */
export async function startRollback(
  workspace: string,
  deploymentId: string,
  sessionId: string,
): Promise<StartDeploymentResponse> {
  return failingWith('Could not start the rollback', () =>
    callRoute('rollbackWorkspace', {
      params: { name: workspace, deploymentId },
      body: { sessionId },
      config: { sameAnswerIfRepeated: true },
    }),
  );
}
