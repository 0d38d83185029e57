import { useMutation, useQueryClient } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { useWorkspaceQuery } from './workspaceQuery';

export const deployOnPushKey = (workspace: string) => ['workspace-deploy-on-push', workspace] as const;

/** GET /api/workspace-deploy-on-push/{name}: whether a push to the workspace's branch deploys it. */
function fetchDeployOnPush(name: string) {
  return failingWith('Could not load the deploy on push setting', () =>
    callRoute('getDeployOnPush', { params: { name } }),
  );
}

export const useDeployOnPush = (workspace: string) =>
  useWorkspaceQuery(deployOnPushKey, fetchDeployOnPush, workspace);

/** PUT /api/workspace-deploy-on-push/{name}: turns deploy on push on or off. */
export function useSetDeployOnPush(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      failingWith('Could not change deploy on push', () =>
        callRoute('setDeployOnPush', { params: { name: workspace }, body: { enabled } }),
      ),
    onSuccess: (answer) => queryClient.setQueryData(deployOnPushKey(workspace), answer),
  });
}
