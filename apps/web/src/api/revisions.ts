import type { StartDeploymentResponse } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { serverError } from './errors';
import { callRoute } from './routeClient';

export const revisionsKey = (workspace: string) => ['workspace-revisions', workspace] as const;

/** GET /api/workspace-revisions/{name}: the workspace's successful deployments, newest first. */
export function useRevisions(workspace: string) {
  return useQuery({
    queryKey: revisionsKey(workspace),
    queryFn: async () => {
      try {
        return await callRoute('workspaceRevisions', { params: { name: workspace } });
      } catch (error) {
        throw new Error(serverError(error) ?? 'Could not load the revisions', { cause: error });
      }
    },
  });
}

/** POST /api/workspace-rollback/{name}/{deploymentId}: starts the rollback under `sessionId`. */
export async function startRollback(
  workspace: string,
  deploymentId: string,
  sessionId: string,
): Promise<StartDeploymentResponse> {
  try {
    return await callRoute('rollbackWorkspace', {
      params: { name: workspace, deploymentId },
      body: { sessionId },
      config: { sameAnswerIfRepeated: true },
    });
  } catch (error) {
    throw new Error(serverError(error) ?? 'Could not start the rollback', { cause: error });
  }
}
