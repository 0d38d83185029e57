import type {
  Preview,
  PreviewVariable,
  UpdatePreviewSettings,
  UpdatePreviewVariable,
} from '@slipway/contract';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { replaceRow, useWorkspaceMutation } from './workspaceMutation';
import { type Polling, useWorkspaceQuery } from './workspaceQuery';

export const previewSettingsKey = (workspace: string) => ['workspace-preview-settings', workspace] as const;
export const previewsKey = (workspace: string) => ['workspace-previews', workspace] as const;
export const previewVariablesKey = (workspace: string) => ['workspace-preview-variables', workspace] as const;

/** GET /api/workspace-preview-settings/{name}: the switch, VM size, how many at once and after how many days. */
const fetchPreviewSettings = (name: string) =>
  failingWith('Could not load the preview settings', () =>
    callRoute('getPreviewSettings', { params: { name } }),
  );

export const usePreviewSettings = (workspace: string) =>
  useWorkspaceQuery(previewSettingsKey, fetchPreviewSettings, workspace, { staleTime: 0 });

/** PUT /api/workspace-preview-settings/{name}: the fields given change, the others keep their values. */
export const useSetPreviewSettings = (workspace: string) =>
  useWorkspaceMutation({
    failure: 'Could not save the preview settings',
    send: (settings: UpdatePreviewSettings) =>
      callRoute('setPreviewSettings', { params: { name: workspace }, body: settings }),
    answered: (saved, cache) => cache.setQueryData(previewSettingsKey(workspace), saved),
  });

/** GET /api/workspace-previews/{name}: the previews of the workspace's pull requests, newest first. */
function fetchPreviews(name: string) {
  return failingWith('Could not load the previews', () => callRoute('listPreviews', { params: { name } }));
}

/** The workspace's previews; `refetchInterval` lets a screen poll while one is deploying. */
export const usePreviews = (workspace: string, options: Polling<Preview[]> = {}) =>
  useWorkspaceQuery(previewsKey, fetchPreviews, workspace, { staleTime: 0, ...options });

/** A preview's route parameters: the workspace and its pull request's number. */
const previewParams = (workspace: string, preview: Preview) => ({ name: workspace, number: preview.number });

/** One preview's answer replaces its row at once; the list is read again for the rest. */
const usePreviewAction = (
  workspace: string,
  verb: string,
  send: (params: { name: string; number: number }) => Promise<Preview>,
) =>
  useWorkspaceMutation({
    failure: (preview: Preview) => `Could not ${verb} the preview of #${preview.number}`,
    send: (preview: Preview) => send(previewParams(workspace, preview)),
    answered: (changed, cache) =>
      replaceRow(cache, previewsKey(workspace), changed, (preview) => preview.number === changed.number),
    reread: previewsKey(workspace),
  });

/** POST /api/workspace-previews/{name}/{number}/redeploy: its head commit again. */
export const useRedeployPreview = (workspace: string) =>
  usePreviewAction(workspace, 'redeploy', (params) => callRoute('redeployPreview', { params }));

/** POST /api/workspace-previews/{name}/{number}/approve: lets its current head commit run. */
export const useApprovePreview = (workspace: string) =>
  usePreviewAction(workspace, 'approve', (params) => callRoute('approvePreview', { params }));

/** DELETE /api/workspace-previews/{name}/{number}: everything it made goes. */
export const useRemovePreview = (workspace: string) =>
  useWorkspaceMutation({
    failure: (preview: Preview) => `Could not remove the preview of #${preview.number}`,
    send: (preview: Preview) => callRoute('removePreview', { params: previewParams(workspace, preview) }),
    reread: previewsKey(workspace),
  });

/** GET /api/workspace-preview-variables/{name}: every variable's key and whether previews get it, no values. */
const fetchPreviewVariables = (name: string) =>
  failingWith('Could not load the variables for previews', () =>
    callRoute('listPreviewVariables', { params: { name } }),
  );

export const usePreviewVariables = (workspace: string) =>
  useWorkspaceQuery(previewVariablesKey, fetchPreviewVariables, workspace, { staleTime: 0 });

/** PUT /api/workspace-preview-variables/{name}/{key}: marks it for previews, or gives previews a value of their own. */
export const useSetPreviewVariable = (workspace: string) =>
  useWorkspaceMutation({
    failure: ({ key }: { key: string; change: UpdatePreviewVariable }) =>
      `Could not change ${key} for previews`,
    send: ({ key, change }: { key: string; change: UpdatePreviewVariable }) =>
      callRoute('setPreviewVariable', { params: { name: workspace, key }, body: change }),
    answered: (changed: PreviewVariable, cache) =>
      replaceRow(cache, previewVariablesKey(workspace), changed, (variable) => variable.key === changed.key),
  });
