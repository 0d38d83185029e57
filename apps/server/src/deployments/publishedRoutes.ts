import type { Ingress, IngressTarget } from '../infra/ingress/ingress.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';

export type RouteDeps = { ingress: Ingress; workspaces: Pick<WorkspacesRepository, 'update'> };

/**
 * The one owner of a workspace's routes: what goes to the ingress is recorded beside the workspace (its URLs
 * and upstreams), so the routes can be put back if the proxy loses them. A service keeps its URL.
 */
export async function publishRoutes(
  deps: RouteDeps,
  workspace: Pick<WorkspaceRow, 'id' | 'name' | 'serviceUrls'>,
  targets: IngressTarget[],
): Promise<Record<string, string>> {
  const serviceUrls = await deps.ingress.publish(workspace, targets, workspace.serviceUrls ?? {});
  const serviceUpstreams: Record<string, string> = {};
  for (const target of targets) serviceUpstreams[target.service] ??= target.upstream;
  await deps.workspaces.update(workspace.id, { serviceUrls, serviceUpstreams });
  return serviceUrls;
}

/** Takes the workspace off the web: its recorded routes go first, so nothing puts them back. */
export async function unpublishRoutes(deps: RouteDeps, workspaceId: string) {
  await deps.workspaces.update(workspaceId, { serviceUrls: {}, serviceUpstreams: {} });
  await deps.ingress.unpublish(workspaceId);
}

/** The ingress targets recorded for a workspace, as `publishRoutes` stored them. */
export function recordedTargets(workspace: Pick<WorkspaceRow, 'serviceUpstreams'>): IngressTarget[] {
  return Object.entries(workspace.serviceUpstreams ?? {}).map(([service, upstream]) => ({
    service,
    upstream,
    hostPort: Number(upstream.slice(upstream.lastIndexOf(':') + 1)),
  }));
}
