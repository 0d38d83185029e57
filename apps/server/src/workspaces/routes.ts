import type { RouteHandlers } from '../http/registerRoutes.js';
import type { WorkspaceLifecycle } from './workspaceLifecycle.js';
import type { WorkspacesService } from './workspacesService.js';

export function workspacesRoutes(deps: { workspaces: WorkspacesService; lifecycle: WorkspaceLifecycle }) {
  const { workspaces, lifecycle } = deps;
  return {
    listWorkspaces: ({ user, workspaceLimit }) => workspaces.list(user.id, workspaceLimit),
    workspaceDetails: ({ user, params }) => workspaces.details(user.id, params.name),
    workspaceServices: ({ user, params }) => workspaces.services(user.id, params.name),
    deleteWorkspace: ({ user, params }) => lifecycle.delete(user, params.name),
  } satisfies Partial<RouteHandlers>;
}
