import type { StartDeploymentResponse, WorkspaceRevisions } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { serverError } from './errors';

const enc = encodeURIComponent;

export const revisionsKey = (workspace: string) => ['workspace-revisions', workspace] as const;

/** GET /api/workspace-revisions/{name}: the workspace's successful deployments, newest first. */
export function useRevisions(workspace: string) {
  return useQuery({
    queryKey: revisionsKey(workspace),
    queryFn: async () => {
      try {
        const { data } = await api.get<WorkspaceRevisions>(`/api/workspace-revisions/${enc(workspace)}`);
        return data;
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
    const { data } = await api.post<StartDeploymentResponse>(
      `/api/workspace-rollback/${enc(workspace)}/${enc(deploymentId)}`,
      { sessionId },
      { sameAnswerIfRepeated: true },
    );
    return data;
  } catch (error) {
    throw new Error(serverError(error) ?? 'Could not start the rollback', { cause: error });
  }
}
