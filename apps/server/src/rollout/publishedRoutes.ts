import type { Ingress, IngressTarget } from '../infra/ingress/ingress.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';

export type RouteDeps = { ingress: Ingress; workspaces: Pick<WorkspacesRepository, 'update'> };

/**
 * The one writer of a workspace's routes to the ingress (Caddy): what goes to the ingress is recorded beside the
 * workspace (its URLs and upstreams), so the routes can be put back if the proxy loses them. A service keeps its
 * URL.
 */
export async function publishRoutes(
  deps: RouteDeps,
  workspace: Pick<WorkspaceRow, 'id' | 'name' | 'serviceUrls'>,
  targets: IngressTarget[],
): Promise<Record<string, string>> {
  const serviceUrls = await deps.ingress.publish(workspace, targets, workspace.serviceUrls ?? {});
  const serviceUpstreams: Record<string, string | string[]> = {};
  for (const target of targets) serviceUpstreams[target.service] ??= target.upstreams ?? target.upstream;
  await deps.workspaces.update(workspace.id, { serviceUrls, serviceUpstreams });
  return serviceUrls;
}

/**
 * Sends the workspace's requests to these targets for now (a blue/green switch): the routes on record stay as
 * they are, so a restart of Slipway in between puts those back. Its services keep their URLs.
 */
export async function routeFor(
  deps: Pick<RouteDeps, 'ingress'>,
  workspace: Pick<WorkspaceRow, 'id' | 'name' | 'serviceUrls'>,
  targets: IngressTarget[],
) {
  await deps.ingress.publish(workspace, targets, workspace.serviceUrls ?? {});
}

/** The routes on record go back to the ingress (after a blue/green switch that did not stand). */
export async function restoreRecordedRoutes(
  deps: Pick<RouteDeps, 'ingress'>,
  workspace: Pick<WorkspaceRow, 'id' | 'name' | 'serviceUrls' | 'serviceUpstreams'>,
) {
  await routeFor(deps, workspace, recordedTargets(workspace));
}

/** How many requests the proxy has in flight to these upstreams (0 without a proxy). */
export const requestsInFlight = (deps: Pick<RouteDeps, 'ingress'>, upstreams: string[]) =>
  deps.ingress.inFlight(upstreams);

/** Takes the workspace off the web: its recorded routes go first, so nothing puts them back. */
export async function unpublishRoutes(deps: RouteDeps, workspaceId: string) {
  await deps.workspaces.update(workspaceId, { serviceUrls: {}, serviceUpstreams: {} });
  await deps.ingress.unpublish(workspaceId);
}

/** The ingress targets recorded for a workspace, as `publishRoutes` stored them. */
export function recordedTargets(workspace: Pick<WorkspaceRow, 'serviceUpstreams'>): IngressTarget[] {
  return Object.entries(workspace.serviceUpstreams ?? {}).map(([service, recorded]) => {
    const upstream = (Array.isArray(recorded) ? recorded[0] : recorded) ?? '';
    return {
      service,
      upstream,
      hostPort: Number(upstream.slice(upstream.lastIndexOf(':') + 1)),
      ...(Array.isArray(recorded) && recorded.length > 1 ? { upstreams: recorded } : {}),
    };
  });
}

/** Every address of the targets (each replica's). */
export const upstreamsOf = (targets: IngressTarget[]) => targets.flatMap((t) => t.upstreams ?? [t.upstream]);
