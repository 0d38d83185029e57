import type { AddDomain, CustomDomain } from '@slipway/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { useWorkspaceQuery, type WorkspaceQueryOptions } from './workspaceQuery';

export const customDomainsKey = (workspace: string) => ['workspace-domains', workspace] as const;

/** GET /api/workspace-domains/{name}: the workspace's own domains, each with its status and DNS records. */
function fetchCustomDomains(name: string) {
  return failingWith('Could not load the domains', () => callRoute('listDomains', { params: { name } }));
}

/** The workspace's domains; `refetchInterval` lets the screen poll while a domain is on its way to Active. */
export const useCustomDomains = (
  workspace: string,
  options: Pick<WorkspaceQueryOptions<CustomDomain[]>, 'refetchInterval'> = {},
) => useWorkspaceQuery(customDomainsKey, fetchCustomDomains, workspace, { staleTime: 0, ...options });

/** POST /api/workspace-domains/{name}: claims a domain for a service; it is served once Verify passes. */
export function useAddCustomDomain(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddDomain) =>
      failingWith(`Could not add ${input.domain}`, () =>
        callRoute('addDomain', { params: { name: workspace }, body: input }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customDomainsKey(workspace) }),
  });
}

/** POST /api/workspace-domains/{name}/{domain}/verify: checks its DNS now; the answer is its new status. */
export function useVerifyCustomDomain(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domain: CustomDomain) =>
      failingWith(`Could not check ${domain.unicode_domain}`, () =>
        callRoute('verifyDomain', { params: { name: workspace, domain: domain.domain } }),
      ),
    onSuccess: (checked) =>
      queryClient.setQueryData<CustomDomain[]>(customDomainsKey(workspace), (domains) =>
        domains?.map((domain) => (domain.id === checked.id ? checked : domain)),
      ),
  });
}

/** DELETE /api/workspace-domains/{name}/{domain}: its route goes at once. */
export function useRemoveCustomDomain(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domain: CustomDomain) =>
      failingWith(`Could not remove ${domain.unicode_domain}`, () =>
        callRoute('removeDomain', { params: { name: workspace, domain: domain.domain } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: customDomainsKey(workspace) }),
  });
}
