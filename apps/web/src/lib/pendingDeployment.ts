import type { SelectedRepo } from './deploymentSelection';

/** Kept in localStorage while the browser is away at the payment provider. */
export const PENDING_DEPLOYMENT_KEY = 'pendingDeployment';

export interface PendingDeployment {
  selectedRepo: SelectedRepo;
  selectedBranch: string;
  selectedVmSize: string;
  /** How many VMs of the size (1 when kept by a Slipway that did not ask). */
  selectedNodes: number;
  subscriptionId: string;
}

export function savePendingDeployment(pending: PendingDeployment, store: Storage = localStorage): void {
  store.setItem(PENDING_DEPLOYMENT_KEY, JSON.stringify(pending));
}

export type PendingRead =
  | { ok: true; pending: PendingDeployment }
  | { ok: false; error: 'No deployment data found' | 'Failed to parse deployment data' };

/** Reads and removes the pending deployment (it is consumed on arrival). */
export function takePendingDeployment(store: Storage = localStorage): PendingRead {
  const raw = store.getItem(PENDING_DEPLOYMENT_KEY);
  store.removeItem(PENDING_DEPLOYMENT_KEY);
  if (!raw) return { ok: false, error: 'No deployment data found' };
  try {
    const value = JSON.parse(raw) as Partial<PendingDeployment> | null;
    if (!value?.selectedRepo?.name || !value.selectedRepo.owner?.login || !value.selectedBranch) {
      return { ok: false, error: 'Failed to parse deployment data' };
    }
    return {
      ok: true,
      pending: {
        selectedRepo: value.selectedRepo,
        selectedBranch: value.selectedBranch,
        selectedVmSize: value.selectedVmSize ?? '',
        selectedNodes: typeof value.selectedNodes === 'number' ? value.selectedNodes : 1,
        subscriptionId: value.subscriptionId ?? '',
      },
    };
  } catch {
    return { ok: false, error: 'Failed to parse deployment data' };
  }
}
