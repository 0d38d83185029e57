import { DEFAULT_VM_SIZE } from '@slipway/contract';
import { fetchAllBranches } from '../../api/repositories';
import { type DeploymentConfig, useSessionDeploymentConfig } from '../../api/workflow';
import { defaultBranch } from '../../lib/defaultBranch';
import { readDeploymentSelection } from '../../lib/deploymentSelection';

/** Optional navigation state of /deploy/{owner}/{repo}. */
export interface DeployNavigationState {
  branch?: string;
  vmSize?: string;
  subscriptionId?: string | null;
  nodes?: number;
}

/**
 * Opened directly (a bookmark, a shared link): the repository's default branch (main, then master,
 * then the first) and the default VM size; null when the repository has no branch we can read.
 */
async function defaultConfig(owner: string, repo: string): Promise<DeploymentConfig | null> {
  const branches = await fetchAllBranches(owner, repo).catch((error: unknown) => {
    console.error('Failed to fetch branches', error);
    return [];
  });
  const branch = defaultBranch(branches);
  return branch ? { owner, repo, branch, vmSize: DEFAULT_VM_SIZE, subscriptionId: null, nodes: 1 } : null;
}

/** This tab's selection when it is for this repository, else the repository's defaults. */
async function fallbackConfig(owner: string, repo: string): Promise<DeploymentConfig | null> {
  const selection = readDeploymentSelection();
  if (
    selection.selectedRepo?.name === repo &&
    selection.selectedRepo.owner.login === owner &&
    selection.selectedBranch
  ) {
    return {
      owner,
      repo,
      branch: selection.selectedBranch,
      vmSize: selection.selectedVmSize,
      subscriptionId: null,
      nodes: selection.selectedNodes,
    };
  }
  return defaultConfig(owner, repo);
}

/**
 * The configuration to deploy: navigation state first (then kept with the session on the server
 * so a reload keeps it), else the session's stored state, else the selection made in this tab,
 * else the repository's defaults.
 */
export function useDeploymentConfig(
  owner: string,
  repo: string,
  sessionId: string | null,
  nav: DeployNavigationState,
) {
  const { branch, vmSize, subscriptionId, nodes } = nav;
  const given =
    branch && vmSize
      ? { owner, repo, branch, vmSize, subscriptionId: subscriptionId ?? null, nodes: nodes ?? 1 }
      : null;
  const query = useSessionDeploymentConfig(sessionId, owner, repo, given, () => fallbackConfig(owner, repo));
  return { config: query.data ?? null, resolved: query.isSuccess };
}
