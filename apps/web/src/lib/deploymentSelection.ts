import { DEFAULT_VM_SIZE } from '@slipway/contract';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * The deployment being put together across the picker, environment-variables and review screens.
 * Kept in sessionStorage under this key so a reload (or a trip to GitHub and back) keeps it,
 * while a new tab starts fresh. 'Deploy New' resets it.
 */
export const DEPLOYMENT_SELECTION_KEY = 'slipway.deploymentSelection';

/** The fields of a repository the later steps need. */
export interface SelectedRepo {
  id: number | string;
  name: string;
  owner: { login: string };
  description?: string | null;
  private?: boolean;
  language?: string | null;
}

export interface DeploymentSelection {
  selectedRepo: SelectedRepo | null;
  selectedBranch: string;
  selectedVmSize: string;
  /** How many VMs of the size the workspace runs on. */
  selectedNodes: number;
}

export const INITIAL_DEPLOYMENT_SELECTION: DeploymentSelection = {
  selectedRepo: null,
  selectedBranch: '',
  selectedVmSize: DEFAULT_VM_SIZE,
  selectedNodes: 1,
};

const listeners = new Set<() => void>();
let cached: { raw: string | null; value: DeploymentSelection } | undefined;

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function readDeploymentSelection(): DeploymentSelection {
  const raw = storage()?.getItem(DEPLOYMENT_SELECTION_KEY) ?? null;
  if (cached && cached.raw === raw) return cached.value;
  let value = INITIAL_DEPLOYMENT_SELECTION;
  if (raw) {
    try {
      value = { ...INITIAL_DEPLOYMENT_SELECTION, ...(JSON.parse(raw) as Partial<DeploymentSelection>) };
    } catch {
      value = INITIAL_DEPLOYMENT_SELECTION;
    }
  }
  cached = { raw, value };
  return value;
}

function write(value: DeploymentSelection | null) {
  const store = storage();
  if (value) store?.setItem(DEPLOYMENT_SELECTION_KEY, JSON.stringify(value));
  else store?.removeItem(DEPLOYMENT_SELECTION_KEY);
  for (const listener of listeners) listener();
}

/**
 * Navigation state for /repository-picker that reopens the Configure Deployment dialog with the
 * stored repository and branch: only 'Back' from the variables and review screens sends it, so
 * every other way to the picker ('Deploy Another App', 'Try Different Configuration', billing's
 * 'Back', a link) opens the picker with the dialog closed.
 */
export const REOPEN_CONFIGURE_STATE = { reopenConfigure: true } as const;

export function wantsConfigureReopen(state: unknown): boolean {
  return (state as { reopenConfigure?: unknown } | null)?.reopenConfigure === true;
}

/** Merges the given fields into the stored selection. */
export function updateDeploymentSelection(patch: Partial<DeploymentSelection>): DeploymentSelection {
  const next = { ...readDeploymentSelection(), ...patch };
  write(next);
  return next;
}

/** Back to selectedRepo null, selectedBranch '', the default VM size and one node. */
export function resetDeploymentSelection(): void {
  write(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The selection as React state, with the same update and reset operations. */
export function useDeploymentSelection() {
  const selection = useSyncExternalStore(
    subscribe,
    readDeploymentSelection,
    () => INITIAL_DEPLOYMENT_SELECTION,
  );
  const update = useCallback((patch: Partial<DeploymentSelection>) => updateDeploymentSelection(patch), []);
  return { ...selection, update, reset: resetDeploymentSelection };
}
