import { dnsLabel } from '../compose/composeProject.js';
import { type CaddyAdmin, createCaddyAdmin } from './caddyAdmin.js';
import type { Ingress, IngressTarget } from './ingress.js';

const SERVER = 'slipway';
const ROUTES = `/config/apps/http/servers/${SERVER}/routes`;
const TLS_POLICY_ID = 'slipway-internal-tls';
/** How long Caddy holds a request while the service's container is being replaced. */
const HOLD_DURING_SWAP = '20s';

/** The `@id` of a workspace's one top-level route. */
export const workspaceRouteId = (workspaceId: string) => `slipway-ws-${workspaceId}`;
/** The `@id` of a service's route inside its workspace's route. */
export const routeId = (workspaceId: string, service: string) =>
  `slipway-${workspaceId}-${dnsLabel(service)}`;

interface CaddyRoute {
  '@id'?: string;
  match?: { host?: string[] }[];
  handle?: unknown[];
  terminal?: boolean;
}

const hostsOf = (route: CaddyRoute) => route.match?.flatMap((m) => m.host ?? []) ?? [];

/**
 * Caddy, configured through its admin API. Each workspace has one top-level route matching all its hosts
 * `{service}-{workspace}.{domain}`, holding one sub-route per service; a deployment replaces that route in
 * one admin call, so Caddy reloads once per deployment and never serves half of a change. Without a public
 * domain the hosts live under `.localhost` and get certificates from Caddy's internal CA; with one, Caddy's
 * automatic ACME applies.
 */
export function createCaddyIngress(options: {
  adminUrl: string;
  publicDomain: string | undefined;
  httpsPort: number;
  timeoutMs?: number;
  attempts?: number;
  retryDelayMs?: number;
}): Ingress {
  const admin = createCaddyAdmin(options);
  const domain = options.publicDomain ?? 'localhost';
  const urlFor = (host: string) =>
    `https://${host}${options.httpsPort === 443 ? '' : `:${options.httpsPort}`}`;

  async function unpublish(workspaceId: string) {
    await admin.retrying(async () => {
      const own = (await listRoutes(admin)).filter(
        (r) => r['@id'] === workspaceRouteId(workspaceId) || r['@id']?.startsWith(`slipway-${workspaceId}-`),
      );
      for (const route of own) {
        await admin.call('DELETE', `/id/${route['@id']}`).catch((error: { status?: number }) => {
          if (error.status !== 404) throw error;
        });
      }
    });
  }

  return {
    kind: 'caddy',
    async publish(workspace, targets, currentUrls = {}) {
      if (targets.length === 0) {
        await unpublish(workspace.id);
        return {};
      }
      return admin.retrying(async () => {
        await ensureServer(admin, !options.publicDomain, options.httpsPort);
        const routes = await listRoutes(admin);
        const id = workspaceRouteId(workspace.id);
        const isOwn = (route: CaddyRoute) =>
          route['@id'] === id || Boolean(route['@id']?.startsWith(`slipway-${workspace.id}-`));
        const taken = new Set(routes.filter((route) => !isOwn(route)).flatMap(hostsOf));
        const hosts = chooseHosts(workspace, targets, currentUrls, domain, taken);
        const route: CaddyRoute = {
          '@id': id,
          match: [{ host: Object.values(hosts) }],
          handle: [{ handler: 'subroute', routes: serviceRoutes(workspace.id, targets, hosts) }],
          terminal: true,
        };
        if (routes.some((r) => isOwn(r) && r['@id'] !== id)) {
          // Routes of the earlier layout (one top-level route per service) go in the same single update.
          await admin.call('PATCH', ROUTES, [...routes.filter((r) => !isOwn(r)), route]);
        } else if (routes.some((r) => r['@id'] === id)) {
          await admin.call('PATCH', `/id/${id}`, route);
        } else {
          await admin.call('POST', ROUTES, route);
        }
        return Object.fromEntries(Object.entries(hosts).map(([service, host]) => [service, urlFor(host)]));
      });
    },

    unpublish,

    async missing(workspaceIds) {
      const routes = await listRoutes(admin);
      const present = new Set(routes.map((route) => route['@id']));
      return workspaceIds.filter((id) => !present.has(workspaceRouteId(id)));
    },

    async inFlight(upstreams) {
      // Caddy's reverse proxies count their active requests per upstream address; one no longer used is gone.
      const listed = ((await admin.call('GET', '/reverse_proxy/upstreams')) ?? []) as {
        address?: string;
        num_requests?: number;
      }[];
      const wanted = new Set(upstreams);
      return listed
        .filter((upstream) => upstream.address !== undefined && wanted.has(upstream.address))
        .reduce((sum, upstream) => sum + (upstream.num_requests ?? 0), 0);
    },
  };
}

/** Slipway's top-level routes; none when Caddy has no Slipway server (it restarted empty). */
async function listRoutes(admin: CaddyAdmin): Promise<CaddyRoute[]> {
  const routes = await admin.call('GET', ROUTES).catch((error: { status?: number }) => {
    if (error.status === 400 || error.status === 404) return null;
    throw error;
  });
  return (routes ?? []) as CaddyRoute[];
}

/**
 * The host of each service: the one it has (its current URL, when that is still under this domain and not
 * another workspace's), else `{service}-{workspace}.{domain}`, with the workspace id's first characters added
 * when another user's workspace of the same name holds that host.
 */
function chooseHosts(
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

function serviceRoutes(workspaceId: string, targets: IngressTarget[], hosts: Record<string, string>) {
  const seen = new Set<string>();
  return targets.flatMap((target) => {
    if (seen.has(target.service)) return [];
    seen.add(target.service);
    return [
      {
        '@id': routeId(workspaceId, target.service),
        match: [{ host: [hosts[target.service]!] }],
        handle: [
          {
            handler: 'reverse_proxy',
            upstreams: [{ dial: target.upstream }],
            // While a redeploy swaps the container behind the service's fixed host port, requests wait and are
            // retried instead of failing: a refused connection always, an answerless one for safe methods.
            load_balancing: {
              try_duration: HOLD_DURING_SWAP,
              try_interval: '250ms',
              retry_match: [{ method: ['GET', 'HEAD', 'OPTIONS'] }],
            },
          },
        ],
        terminal: true,
      },
    ];
  });
}

/**
 * Creates each missing level of Slipway's server (and the internal-CA policy without a public domain): a
 * Caddy that restarted empty has none of it. Caddy's PUT only creates a key whose parent exists; a key that
 * appeared meanwhile (another replica) is already what we want.
 */
async function ensureServer(admin: CaddyAdmin, internalTls: boolean, httpsPort: number) {
  if ((await admin.read(ROUTES)) !== null && (!internalTls || (await admin.read(`/id/${TLS_POLICY_ID}`))))
    return;
  const ensure = async (path: string, value: unknown) => {
    const existing = await admin.read(path);
    if (existing !== null && existing !== undefined) return;
    await admin.call('PUT', path, value).catch((error: Error) => {
      if (!/already exists/.test(error.message)) throw error;
    });
  };
  await ensure('/config/apps', {});
  await ensure('/config/apps/http', {});
  await ensure('/config/apps/http/servers', {});
  await ensure(`/config/apps/http/servers/${SERVER}`, { listen: [`:${httpsPort}`], routes: [] });
  await ensure(ROUTES, []);
  if (internalTls && !(await admin.read(`/id/${TLS_POLICY_ID}`))) {
    await ensure('/config/apps/tls', {});
    await ensure('/config/apps/tls/automation', {});
    await ensure('/config/apps/tls/automation/policies', []);
    await admin.call('POST', '/config/apps/tls/automation/policies', {
      '@id': TLS_POLICY_ID,
      issuers: [{ module: 'internal' }],
    });
  }
}
