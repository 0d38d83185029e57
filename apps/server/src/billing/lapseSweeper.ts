import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import { type LapseSweepDeps, sweepLapsedWorkspaces } from './lapseSweep.js';

/** Hourly, in one replica: stops the workspaces whose subscriptions lapsed beyond the grace period. */
export function createLapseSweeper(deps: LapseSweepDeps & { kv: KeyValueStore }) {
  return scheduledWhileLeaseHeld('billing-lapse-sweeper', {
    kv: deps.kv,
    logger: deps.logger,
    task: () => sweepLapsedWorkspaces(deps),
  });
}
