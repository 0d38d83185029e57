import { createCaddyAdmin } from './caddyAdmin.js';
import { createCertificateLog } from './caddyCertificateLog.js';
import {
  type CaddyRoute,
  chooseHosts,
  hostsOf,
  serviceRoutes,
  servicesOf,
  workspaceRoute,
  workspaceRouteId,
} from './caddyRoutes.js';
import { ensureServer, listRoutes, ROUTES } from './caddyServer.js';
import { ensureTlsAutomation } from './caddyTls.js';
import type { CustomHost, Ingress, OnDemandTls } from './ingress.js';
import { describeCertificate, handshake, httpsAddressOf } from './servedCertificate.js';

export { routeId, workspaceRouteId } from './caddyRoutes.js';

/**
 * Caddy, configured through its admin API. Each workspace has one top-level route matching all its hosts —
 * `{service}-{workspace}.{domain}` and its verified custom domains — holding one sub-route per service; a
 * deployment replaces that route in one admin call, so Caddy reloads once per deployment and never serves half
 * of a change. Without a public domain the own hosts live under `.localhost` and get certificates from Caddy's
 * internal CA; with one, Caddy's automatic ACME applies. Custom domains get theirs on demand from
 * `onDemandTls`'s CA, each name asked of Slipway first.
 */
export function createCaddyIngress(options: {
  adminUrl: string;
  publicDomain: string | undefined;
  httpsPort: number;
  /** The verified custom domains of a workspace, read on every publish so that they ride along. */
  customHosts?: (workspaceId: string) => Promise<CustomHost[]>;
  onDemandTls?: OnDemandTls;
  /** How long `certificateFor` waits for Caddy, which holds the handshake while it orders a certificate. */
  handshakeTimeoutMs?: number;
  /** Where background failures (the certificate log) are reported. */
  onError?: (error: unknown, what: string) => void;
  timeoutMs?: number;
  attempts?: number;
  retryDelayMs?: number;
}): Ingress {
  const admin = createCaddyAdmin(options);
  const domain = options.publicDomain ?? 'localhost';
  const isOwn = (host: string) => host.endsWith(`.${domain}`);
  const customOnly = (hosts: CustomHost[]) => hosts.filter((host) => !isOwn(host.host));
  const urlFor = (host: string) =>
    `https://${host}${options.httpsPort === 443 ? '' : `:${options.httpsPort}`}`;
  const onError =
    options.onError ?? ((error: unknown, what: string) => console.warn(`caddy ingress: ${what}`, error));
  const certificateLog = createCertificateLog(admin, onError);

  async function unpublish(workspaceId: string) {
    await admin.retrying(async () => {
      const own = (await listRoutes(admin)).routes.filter(
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
    servesCustomDomains: true,

    async publish(workspace, targets, currentUrls = {}) {
      if (targets.length === 0) {
        await unpublish(workspace.id);
        return {};
      }
      return admin.retrying(async () => {
        await ensureServer(admin, options.httpsPort);
        await ensureTlsAutomation(admin, options.publicDomain, options.onDemandTls);
        await certificateLog.restore();
        const { routes, etag } = await listRoutes(admin);
        const custom = customOnly((await options.customHosts?.(workspace.id)) ?? []);
        const id = workspaceRouteId(workspace.id);
        const isOwnRoute = (route: CaddyRoute) =>
          route['@id'] === id || Boolean(route['@id']?.startsWith(`slipway-${workspace.id}-`));
        const taken = new Set(routes.filter((route) => !isOwnRoute(route)).flatMap(hostsOf));
        const hosts = chooseHosts(workspace, targets, currentUrls, domain, taken);
        const route = workspaceRoute(
          workspace.id,
          serviceRoutes(workspace.id, targets, hosts),
          custom,
          urlFor,
        );
        // Written only if no one changed the routes since they were read (a custom domain added meanwhile):
        // otherwise Caddy refuses (412) and this runs again on what is there now.
        if (routes.some((r) => isOwnRoute(r) && r['@id'] !== id)) {
          // Routes of the earlier layout (one top-level route per service) go in the same single update.
          await admin.call('PATCH', ROUTES, [...routes.filter((r) => !isOwnRoute(r)), route], etag);
        } else if (routes.some((r) => r['@id'] === id)) {
          await admin.call('PATCH', `/id/${id}`, route, etag);
        } else {
          await admin.call('POST', ROUTES, route, etag);
        }
        return Object.fromEntries(Object.entries(hosts).map(([service, host]) => [service, urlFor(host)]));
      });
    },

    unpublish,

    async missing(workspaceIds) {
      const { routes } = await listRoutes(admin);
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

    async setCustomHosts(workspaceId, hosts) {
      const id = workspaceRouteId(workspaceId);
      await admin.retrying(async () => {
        const live = await admin.readTagged(`/id/${id}`).catch((error: { status?: number }) => {
          if (error.status === 400 || error.status === 404) return null;
          throw error;
        });
        if (!live?.value) return; // no route yet: its first publish reads the hosts
        const route = workspaceRoute(
          workspaceId,
          servicesOf(live.value as CaddyRoute, isOwn),
          customOnly(hosts),
          urlFor,
        );
        await admin.call('PATCH', `/id/${id}`, route, live.etag);
      });
    },

    async certificateFor(host) {
      const address = httpsAddressOf(options.adminUrl, options.httpsPort);
      return describeCertificate(await handshake(address, host, options.handshakeTimeoutMs ?? 30_000));
    },

    onCertificateEvent(listener) {
      return certificateLog.subscribe(listener);
    },

    close: () => certificateLog.close(),
  };
}
