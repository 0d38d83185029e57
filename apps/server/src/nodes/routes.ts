import type { Handler, RouteHandlers } from '../http/registerRoutes.js';
import type { WorkspaceNodesService } from './workspaceNodes.js';

/**
 * The Nodes setting, and the deploy request's `nodes`: the deployments' own start handler, wrapped so the count
 * is checked and stored around it (the deployment pipeline does not read the field).
 */
export function nodeRoutes(deps: {
  nodes: WorkspaceNodesService;
  startDeployment: Handler<'startDeployment'>;
}) {
  const { nodes } = deps;
  return {
    workspaceNodes: ({ user, params }) => nodes.read(user, params.name),
    setWorkspaceNodes: ({ user, params, body }) => nodes.set(user, params.name, body.nodes),
    startDeployment: async (call) =>
      nodes.startWithNodes(call.user, call.body, async () => deps.startDeployment(call)),
  } satisfies Partial<RouteHandlers>;
}
