import type { DeployOnPush } from '@slipway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { serverError } from './errors';

const path = (workspace: string) => `/api/workspace-deploy-on-push/${encodeURIComponent(workspace)}`;
export const deployOnPushKey = (workspace: string) => ['workspace-deploy-on-push', workspace] as const;

/** GET /api/workspace-deploy-on-push/{name}: whether a push to the workspace's branch deploys it. */
export function useDeployOnPush(workspace: string) {
  return useQuery({
    queryKey: deployOnPushKey(workspace),
    queryFn: async () => {
      try {
        return (await api.get<DeployOnPush>(path(workspace))).data;
      } catch (error) {
        throw new Error(serverError(error) ?? 'Could not load the deploy on push setting', { cause: error });
      }
    },
  });
}

/** PUT /api/workspace-deploy-on-push/{name}: turns deploy on push on or off. */
export function useSetDeployOnPush(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (enabled: boolean) => {
      try {
        return (await api.put<DeployOnPush>(path(workspace), { enabled })).data;
      } catch (error) {
        throw new Error(serverError(error) ?? 'Could not change deploy on push', { cause: error });
      }
    },
    onSuccess: (answer) => queryClient.setQueryData(deployOnPushKey(workspace), answer),
  });
}
