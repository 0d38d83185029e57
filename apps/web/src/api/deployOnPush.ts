import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { serverError } from './errors';
import { callRoute } from './routeClient';

export const deployOnPushKey = (workspace: string) => ['workspace-deploy-on-push', workspace] as const;

/** GET /api/workspace-deploy-on-push/{name}: whether a push to the workspace's branch deploys it. */
export function useDeployOnPush(workspace: string) {
  return useQuery({
    queryKey: deployOnPushKey(workspace),
    queryFn: async () => {
      try {
        return await callRoute('getDeployOnPush', { params: { name: workspace } });
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
        return await callRoute('setDeployOnPush', { params: { name: workspace }, body: { enabled } });
      } catch (error) {
        throw new Error(serverError(error) ?? 'Could not change deploy on push', { cause: error });
      }
    },
    onSuccess: (answer) => queryClient.setQueryData(deployOnPushKey(workspace), answer),
  });
}
