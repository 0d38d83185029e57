import type { StartDeploymentResponse } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';

export const revisionsKey = (workspace: string) => ['workspace-revisions', workspace] as const;

/** GET /api/workspace-revisions/{name}: the workspace's successful deployments, newest first. */
export function useRevisions(workspace: string) {
  return useQuery({
    queryKey: revisionsKey(workspace),
    queryFn: () =>
      failingWith('Could not load the revisions', () =>
        callRoute('workspaceRevisions', { params: { name: workspace } }),
      ),
  });
}

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
