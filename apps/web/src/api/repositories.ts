import { type Repository, VM_SIZES, type VmSize } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';

/** GET /api/github/repos. Failures carry 'Failed to fetch repositories'. */
export async function fetchRepositories(): Promise<Repository[]> {
  return failingWith('Failed to fetch repositories', () => callRoute('listRepositories'));
}

export function useRepositories() {
  return useQuery({ queryKey: ['github', 'repos'], queryFn: fetchRepositories });
}

export const BRANCHES_PER_PAGE = 100;

/** Paging stops at an empty page or a page shorter than a full one. */
export function isLastBranchPage(pageLength: number, perPage = BRANCHES_PER_PAGE): boolean {
  return pageLength === 0 || pageLength < perPage;
}

/** Every branch: pages of 100 until an empty page or a page shorter than 100. */
export async function fetchAllBranches(owner: string, repo: string, maxPages = 100): Promise<string[]> {
  const names: string[] = [];
  for (let page = 1; page <= maxPages; page += 1) {
    const branches = await callRoute('listBranches', {
      params: { owner, repo },
      query: { page, per_page: BRANCHES_PER_PAGE },
    });
    names.push(...branches.map((branch) => branch.name));
    if (isLastBranchPage(branches.length)) break;
  }
  return names;
}

/** Branch fetch failures are only logged: the list stays empty. */
export function useBranches(owner: string | undefined, repo: string | undefined) {
  return useQuery({
    queryKey: ['github', 'branches', owner, repo],
    enabled: Boolean(owner && repo),
    queryFn: async () => {
      try {
        return await fetchAllBranches(owner ?? '', repo ?? '');
      } catch (error) {
        console.error('Failed to fetch branches', error);
        return [];
      }
    },
  });
}

/** GET /api/vm-sizes, falling back to the catalogue shipped with the contract. */
export async function fetchVmSizes(): Promise<readonly VmSize[]> {
  try {
    const sizes = await callRoute('vmSizes');
    return sizes.length > 0 ? sizes : VM_SIZES;
  } catch {
    return VM_SIZES;
  }
}

export function useVmSizes() {
  return useQuery({ queryKey: ['vm-sizes'], queryFn: fetchVmSizes, staleTime: Number.POSITIVE_INFINITY });
}
