import { dnsLabel } from '../compose/composeProject.js';
import type { CustomHost, IngressTarget } from './ingress.js';

/** How long Caddy holds a request while the service's container is being replaced. */
const HOLD_DURING_SWAP = '20s';

/** The `@id` of a workspace's one top-level route. */
export const workspaceRouteId = (workspaceId: string) => `slipway-ws-${workspaceId}`;
/** The `@id` of a service's route inside its workspace's route. */
export const routeId = (workspaceId: string, service: string) =>
  `slipway-${workspaceId}-${dnsLabel(service)}`;

export interface CaddyRoute {
  '@id'?: string;
  match?: { host?: string[] }[];
  handle?: unknown[];
  terminal?: boolean;
}

export const hostsOf = (route: CaddyRoute) => route.match?.flatMap((m) => m.host ?? []) ?? [];

/** One service in its workspace's route: its own host(s) under Slipway's domain and how it is reached. */
export interface ServiceRoute {
  id: string;
  ownHosts: string[];
  handle: unknown[];
}

/**
 * A workspace's one route: every host it answers (own and custom) in its match, then a sub-route holding the
 * `www` redirects and one route per service. A custom host joins its service's own route, so it reaches the
 * same upstream and moves with it on every redeploy, rollback and restore.
 */
export function workspaceRoute(
  workspaceId: string,
  services: ServiceRoute[],
  customHosts: CustomHost[],
  urlFor: (host: string) => string,
): CaddyRoute {
  const ids = new Set(services.map((service) => service.id));
  const custom = customHosts.filter((host) => ids.has(routeId(workspaceId, host.service)));
  const served = new Set([...services.flatMap((service) => service.ownHosts), ...custom.map((c) => c.host)]);
  const redirects = custom.flatMap((host) => {
    const partner = wwwPartner(host.host);
    if (!host.redirectWww || served.has(partner)) return [];
    served.add(partner);
    return [
      {
        match: [{ host: [partner] }],
        handle: [
          {
            handler: 'static_response',
            status_code: 308,
            headers: { Location: [`${urlFor(host.host)}{http.request.uri}`] },
          },
        ],
        terminal: true,
      },
    ];
  });
  const routes = services.map((service) => ({
    '@id': service.id,
    match: [
      {
        host: [
          ...service.ownHosts,
          ...custom.filter((c) => routeId(workspaceId, c.service) === service.id).map((c) => c.host),
        ],
      },
    ],
    handle: service.handle,
    terminal: true,
  }));
  return {
    '@id': workspaceRouteId(workspaceId),
    match: [{ host: [...served] }],
    handle: [{ handler: 'subroute', routes: [...redirects, ...routes] }],
    terminal: true,
  };
}

/** `www.{host}` for an apex, the apex for a `www.` host. */
export const wwwPartner = (host: string) => (host.startsWith('www.') ? host.slice(4) : `www.${host}`);

/**
 * The services of a live workspace route, with their own hosts only (those for which `isOwn` holds): what
 * replacing its custom hosts starts from. The `www` redirects (routes without an `@id`) are rebuilt.
 */
export function servicesOf(route: CaddyRoute, isOwn: (host: string) => boolean): ServiceRoute[] {
  const subroute = route.handle?.[0] as { routes?: CaddyRoute[] } | undefined;
  return (subroute?.routes ?? []).flatMap((service) =>
    service['@id']
      ? [{ id: service['@id'], ownHosts: hostsOf(service).filter(isOwn), handle: service.handle ?? [] }]
      : [],
  );
}

/**
 * How Caddy spreads a replicated service's requests: in turn over its replicas, a replica that fails a
 * connection left out for 10 s (passive health: no health path is known for an arbitrary app, and an active
 * check of `/` would take down every app that answers it with a 404; shorter than the hold below, so replicas
 * swapped all at once are back in time), and a request it failed moved to the next replica — a refused
 * connection always, an answerless one for safe methods (Caddy 2.6 retries nothing else). No `retries` cap:
 * while an in-place replacement swaps every replica at once, the hold below must last.
 */
const REPLICA_BALANCING = {
  selection_policy: { policy: 'round_robin' },
  health_checks: { passive: { fail_duration: '10s', max_fails: 1 } },
} as const;

/** A route per service (its first port) to its upstream, or to each of its replicas, on the host chosen for it. */
export function serviceRoutes(
  workspaceId: string,
  targets: IngressTarget[],
  hosts: Record<string, string>,
): ServiceRoute[] {
  const seen = new Set<string>();
  return targets.flatMap((target) => {
    if (seen.has(target.service)) return [];
    seen.add(target.service);
    const upstreams = target.upstreams ?? [target.upstream];
    const { health_checks, selection_policy } = REPLICA_BALANCING;
    return [
      {
        id: routeId(workspaceId, target.service),
        ownHosts: [hosts[target.service]!],
        handle: [
          {
            handler: 'reverse_proxy',
            upstreams: upstreams.map((dial) => ({ dial })),
            // While a redeploy swaps the container behind the service's fixed host port, requests wait and are
            // retried instead of failing: a refused connection always, an answerless one for safe methods.
            load_balancing: {
              ...(upstreams.length > 1 ? { selection_policy } : {}),
              try_duration: HOLD_DURING_SWAP,
              try_interval: '250ms',
              retry_match: [{ method: ['GET', 'HEAD', 'OPTIONS'] }],
            },
            ...(upstreams.length > 1 ? { health_checks } : {}),
          },
        ],
      },
    ];
  });
}

/**
 * The host of each service: the one it has (its current URL, when that is still under this domain and not
 * another workspace's), else `{service}-{workspace}.{domain}`, with the workspace id's first characters added
 * when another user's workspace of the same name holds that host.
 */
export function chooseHosts(
  workspace: { id: string; name: string },
  targets: IngressTarget[],
  currentUrls: Record<string, string>,
  domain: string,
  taken: Set<string>,
): Record<string, string> {
  const hosts: Record<string, string> = {};
  for (const { service } of targets) {
    if (hosts[service]) continue; // one route per service: its first port
    const current = hostOfUrl(currentUrls[service]);
    if (current?.endsWith(`.${domain}`) && !taken.has(current)) {
      hosts[service] = current;
      continue;
    }
    const host = `${dnsLabel(service)}-${dnsLabel(workspace.name)}.${domain}`;
    hosts[service] = taken.has(host)
      ? `${dnsLabel(service)}-${dnsLabel(workspace.name)}-${workspace.id.slice(0, 8)}.${domain}`
      : host;
  }
  return hosts;
}

function hostOfUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
