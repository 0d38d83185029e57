import { DEFAULT_VM_SIZE } from '@slipway/contract';
import { useEffect, useState } from 'react';
import { fetchAllBranches } from '../../api/repositories';
import { type DeploymentConfig, loadSessionState, saveSessionState } from '../../api/workflow';
import { readDeploymentSelection } from '../../app/deploymentSelection';
import { defaultBranch } from '../deploy-config/branchSelection';

/** Optional navigation state of /deploy/{owner}/{repo}. */
export interface DeployNavigationState {
  branch?: string;
  vmSize?: string;
  subscriptionId?: string | null;
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
  return branch ? { owner, repo, branch, vmSize: DEFAULT_VM_SIZE, subscriptionId: null } : null;
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
  const [config, setConfig] = useState<DeploymentConfig | null>(null);
  const [resolved, setResolved] = useState(false);
  const { branch, vmSize, subscriptionId } = nav;

  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    setResolved(false);
    (async () => {
      let next: DeploymentConfig | null = null;
      if (branch && vmSize) {
        next = { owner, repo, branch, vmSize, subscriptionId: subscriptionId ?? null };
        await saveSessionState(sessionId, next);
      } else {
        const stored = await loadSessionState(sessionId);
        if (stored?.branch && stored.vmSize && stored.owner === owner && stored.repo === repo) {
          next = {
            owner,
            repo,
            branch: stored.branch,
            vmSize: stored.vmSize,
            subscriptionId: stored.subscriptionId ?? null,
          };
        } else {
          const selection = readDeploymentSelection();
          if (
            selection.selectedRepo?.name === repo &&
            selection.selectedRepo.owner.login === owner &&
            selection.selectedBranch
          ) {
            next = {
              owner,
              repo,
              branch: selection.selectedBranch,
              vmSize: selection.selectedVmSize,
              subscriptionId: null,
            };
          } else {
            next = await defaultConfig(owner, repo);
          }
          if (next) await saveSessionState(sessionId, next);
        }
      }
      if (cancelled) return;
      setConfig(next);
      setResolved(true);
    })();
    return () => {
      cancelled = true;
    };
  }, [owner, repo, sessionId, branch, vmSize, subscriptionId]);

  return { config, resolved };
}
