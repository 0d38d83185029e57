import { VM_SIZES, type VmSize } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import {
  BRANCHES_PER_PAGE,
  type BranchEntry,
  branchName,
  isLastBranchPage,
} from '../features/deploy-config/branchSelection';
import type { PickerRepository } from '../features/repository-picker/repositoryListing';
import { sortByUpdated } from '../features/repository-picker/repositoryListing';
import { api } from './client';
import { serverError } from './errors';

/** GET /api/github/repos, newest `updated_at` first. Failures carry 'Failed to fetch repositories'. */
export async function fetchRepositories(): Promise<PickerRepository[]> {
  try {
    const { data } = await api.get<PickerRepository[]>('/api/github/repos');
    return sortByUpdated(Array.isArray(data) ? data : []);
  } catch (error) {
    throw new Error(serverError(error) ?? 'Failed to fetch repositories', { cause: error });
  }
}

export function useRepositories() {
  return useQuery({ queryKey: ['github', 'repos'], queryFn: fetchRepositories });
}

const repoPath = (owner: string, repo: string) =>
  `/api/github/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;

/** Every branch: pages of 100 until an empty page or a page shorter than 100. */
export async function fetchAllBranches(owner: string, repo: string, maxPages = 100): Promise<string[]> {
  const names: string[] = [];
  for (let page = 1; page <= maxPages; page += 1) {
    const { data } = await api.get<BranchEntry[]>(`${repoPath(owner, repo)}/branches`, {
      params: { page, per_page: BRANCHES_PER_PAGE },
    });
    const entries = Array.isArray(data) ? data : [];
    names.push(...entries.map(branchName));
    if (isLastBranchPage(entries.length)) break;
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
    const { data } = await api.get<unknown>('/api/vm-sizes');
    const list = Array.isArray(data) ? data : (data as { vm_sizes?: unknown; sizes?: unknown })?.vm_sizes;
    return Array.isArray(list) && list.length > 0 ? (list as VmSize[]) : VM_SIZES;
  } catch {
    return VM_SIZES;
  }
}

export function useVmSizes() {
  return useQuery({ queryKey: ['vm-sizes'], queryFn: fetchVmSizes, staleTime: Number.POSITIVE_INFINITY });
}
