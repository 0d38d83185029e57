import type { WorkspaceNodes } from '@slipway/contract';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { useWorkspaceMutation } from './workspaceMutation';
import { useWorkspaceQuery } from './workspaceQuery';

export const workspaceNodesKey = (workspace: string) => ['workspace-nodes', workspace] as const;

/**
 * How often a screen showing nodes reads them again: a lost node shows within this plus the server's own read
 * (its engine's 2 s ping), well inside 15 s.
 */
export const NODES_POLL_MS = 5_000;

/** GET /api/workspace-nodes/{name}: the node count and each node's state now. */
const fetchWorkspaceNodes = (name: string) =>
  failingWith('Could not load the nodes', () => callRoute('workspaceNodes', { params: { name } }));

export const useWorkspaceNodes = (workspace: string) =>
  useWorkspaceQuery(workspaceNodesKey, fetchWorkspaceNodes, workspace, {
    staleTime: 0,
    refetchInterval: NODES_POLL_MS,
  });

/** PUT /api/workspace-nodes/{name}: the count the next deployment runs the workspace on. */
export const useSetWorkspaceNodes = (workspace: string) =>
  useWorkspaceMutation({
    failure: 'Could not save the nodes',
    send: (nodes: number): Promise<WorkspaceNodes> =>
      callRoute('setWorkspaceNodes', { params: { name: workspace }, body: { nodes } }),
    answered: (saved, cache) => cache.setQueryData(workspaceNodesKey(workspace), saved),
  });
