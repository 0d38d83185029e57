import type { RouteHandlers } from '../http/registerRoutes.js';
import type { CustomDomainsService } from './customDomainsService.js';

/** Workspace Settings → Domains, and Caddy's question before it orders a certificate (loopback only). */
export function customDomainRoutes(deps: { customDomains: CustomDomainsService }) {
  const { customDomains } = deps;
  return {
    listDomains: ({ user, params }) => customDomains.list(user, params.name),
    addDomain: ({ user, params, body }) => customDomains.add(user, params.name, body),
    verifyDomain: ({ user, params }) => customDomains.verify(user, params.name, params.domain),
    removeDomain: ({ user, params }) => customDomains.remove(user, params.name, params.domain),
    tlsPermission: ({ query }) => customDomains.tlsPermission(query.domain),
  } satisfies Partial<RouteHandlers>;
}
