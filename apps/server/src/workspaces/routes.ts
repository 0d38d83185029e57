import type { RouteHandlers } from '../http/registerRoutes.js';
import type { WorkspacesService } from './workspacesService.js';

export function workspacesRoutes(deps: { workspaces: WorkspacesService }) {
  const { workspaces } = deps;
  return {
    listWorkspaces: ({ user }) => workspaces.list(user.id),
    workspaceDetails: ({ user, params }) => workspaces.details(user.id, params.name),
    workspaceServices: ({ user, params }) => workspaces.services(user.id, params.name),
  } satisfies Partial<RouteHandlers>;
}
