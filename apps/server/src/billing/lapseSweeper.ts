import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { everyWhileLeaseHeld } from '../scheduling/periodicTask.js';
import { type LapseSweepDeps, sweepLapsedWorkspaces } from './lapseSweep.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Hourly, in one replica: stops the workspaces whose subscriptions lapsed beyond the grace period. */
export function createLapseSweeper(deps: LapseSweepDeps & { kv: KeyValueStore }) {
  return everyWhileLeaseHeld({
    kv: deps.kv,
    name: 'billing-lapse-sweeper',
    logger: deps.logger,
    intervalMs: SWEEP_EVERY_MS,
    task: () => sweepLapsedWorkspaces(deps),
    failure: 'lapse sweep failed',
  });
}
