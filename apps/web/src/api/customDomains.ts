import type { AddDomain, CustomDomain } from '@slipway/contract';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { replaceRow, useWorkspaceMutation } from './workspaceMutation';
import { type Polling, useWorkspaceQuery } from './workspaceQuery';

export const customDomainsKey = (workspace: string) => ['workspace-domains', workspace] as const;

/** GET /api/workspace-domains/{name}: the workspace's own domains, each with its status and DNS records. */
function fetchCustomDomains(name: string) {
  return failingWith('Could not load the domains', () => callRoute('listDomains', { params: { name } }));
}

/** The workspace's domains; `refetchInterval` lets the screen poll while a domain is on its way to Active. */
export const useCustomDomains = (workspace: string, options: Polling<CustomDomain[]> = {}) =>
  useWorkspaceQuery(customDomainsKey, fetchCustomDomains, workspace, { staleTime: 0, ...options });

/** POST /api/workspace-domains/{name}: claims a domain for a service; it is served once Verify passes. */
export const useAddCustomDomain = (workspace: string) =>
  useWorkspaceMutation({
    failure: (input: AddDomain) => `Could not add ${input.domain}`,
    send: (input: AddDomain) => callRoute('addDomain', { params: { name: workspace }, body: input }),
    answered: (_, cache) => cache.invalidateQueries({ queryKey: customDomainsKey(workspace) }),
  });

/** The domain's route parameters: the workspace and the domain's ASCII name. */
const domainParams = (workspace: string, domain: CustomDomain) => ({
  name: workspace,
  domain: domain.domain,
});

/** POST /api/workspace-domains/{name}/{domain}/verify: checks its DNS now; the answer is its new status. */
export const useVerifyCustomDomain = (workspace: string) =>
  useWorkspaceMutation({
    failure: (domain: CustomDomain) => `Could not check ${domain.unicode_domain}`,
    send: (domain: CustomDomain) => callRoute('verifyDomain', { params: domainParams(workspace, domain) }),
    answered: (checked, cache) =>
      replaceRow(cache, customDomainsKey(workspace), checked, (domain) => domain.id === checked.id),
  });

/** DELETE /api/workspace-domains/{name}/{domain}: its route goes at once. */
export const useRemoveCustomDomain = (workspace: string) =>
  useWorkspaceMutation({
    failure: (domain: CustomDomain) => `Could not remove ${domain.unicode_domain}`,
    send: (domain: CustomDomain) => callRoute('removeDomain', { params: domainParams(workspace, domain) }),
    reread: customDomainsKey(workspace),
  });
