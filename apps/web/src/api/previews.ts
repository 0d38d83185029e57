import type {
  Preview,
  PreviewVariable,
  UpdatePreviewSettings,
  UpdatePreviewVariable,
} from '@slipway/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { useWorkspaceQuery, type WorkspaceQueryOptions } from './workspaceQuery';

export const previewSettingsKey = (workspace: string) => ['workspace-preview-settings', workspace] as const;
export const previewsKey = (workspace: string) => ['workspace-previews', workspace] as const;
export const previewVariablesKey = (workspace: string) => ['workspace-preview-variables', workspace] as const;

/** GET /api/workspace-preview-settings/{name}: the switch, VM size, how many at once and after how many days. */
function fetchPreviewSettings(name: string) {
  return failingWith('Could not load the preview settings', () =>
    callRoute('getPreviewSettings', { params: { name } }),
  );
}

export const usePreviewSettings = (workspace: string) =>
  useWorkspaceQuery(previewSettingsKey, fetchPreviewSettings, workspace, { staleTime: 0 });

/** PUT /api/workspace-preview-settings/{name}: the fields given change, the others keep their values. */
export function useSetPreviewSettings(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UpdatePreviewSettings) =>
      failingWith('Could not save the preview settings', () =>
        callRoute('setPreviewSettings', { params: { name: workspace }, body: settings }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(previewSettingsKey(workspace), saved),
  });
}

/** GET /api/workspace-previews/{name}: the previews of the workspace's pull requests, newest first. */
function fetchPreviews(name: string) {
  return failingWith('Could not load the previews', () => callRoute('listPreviews', { params: { name } }));
}

/** The workspace's previews; `refetchInterval` lets a screen poll while one is deploying. */
export const usePreviews = (
  workspace: string,
  options: Pick<WorkspaceQueryOptions<Preview[]>, 'refetchInterval'> = {},
) => useWorkspaceQuery(previewsKey, fetchPreviews, workspace, { staleTime: 0, ...options });

/** One preview's answer replaces its row at once; the list is read again for the rest. */
function usePreviewAction(
  workspace: string,
  failure: (preview: Preview) => string,
  call: (preview: Preview) => Promise<Preview>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preview: Preview) => failingWith(failure(preview), () => call(preview)),
    onSuccess: (changed) =>
      queryClient.setQueryData<Preview[]>(previewsKey(workspace), (previews) =>
        previews?.map((preview) => (preview.number === changed.number ? changed : preview)),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: previewsKey(workspace) }),
  });
}

/** POST /api/workspace-previews/{name}/{number}/redeploy: its head commit again. */
export const useRedeployPreview = (workspace: string) =>
  usePreviewAction(
    workspace,
    (preview) => `Could not redeploy the preview of #${preview.number}`,
    (preview) => callRoute('redeployPreview', { params: { name: workspace, number: preview.number } }),
  );

/** POST /api/workspace-previews/{name}/{number}/approve: lets its current head commit run. */
export const useApprovePreview = (workspace: string) =>
  usePreviewAction(
    workspace,
    (preview) => `Could not approve the preview of #${preview.number}`,
    (preview) => callRoute('approvePreview', { params: { name: workspace, number: preview.number } }),
  );

/** DELETE /api/workspace-previews/{name}/{number}: everything it made goes. */
export function useRemovePreview(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preview: Preview) =>
      failingWith(`Could not remove the preview of #${preview.number}`, () =>
        callRoute('removePreview', { params: { name: workspace, number: preview.number } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: previewsKey(workspace) }),
  });
}

/** GET /api/workspace-preview-variables/{name}: every variable's key and whether previews get it, no values. */
function fetchPreviewVariables(name: string) {
  return failingWith('Could not load the variables for previews', () =>
    callRoute('listPreviewVariables', { params: { name } }),
  );
}

export const usePreviewVariables = (workspace: string) =>
  useWorkspaceQuery(previewVariablesKey, fetchPreviewVariables, workspace, { staleTime: 0 });

/** PUT /api/workspace-preview-variables/{name}/{key}: marks it for previews, or gives previews a value of their own. */
export function useSetPreviewVariable(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, change }: { key: string; change: UpdatePreviewVariable }) =>
      failingWith(`Could not change ${key} for previews`, () =>
        callRoute('setPreviewVariable', { params: { name: workspace, key }, body: change }),
      ),
    onSuccess: (changed) =>
      queryClient.setQueryData<PreviewVariable[]>(previewVariablesKey(workspace), (variables) =>
        variables?.map((variable) => (variable.key === changed.key ? changed : variable)),
      ),
  });
}
