import type { Platform } from '../platform/platform.js';
import { whileLeaseHeld } from '../scheduling/leaseLock.js';
import { sweepLapsedWorkspaces } from './lapseSweep.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Hourly, in one replica: stops the workspaces whose subscriptions lapsed beyond the grace period. */
export function startLapseSweeps(platform: Platform) {
  let timer: NodeJS.Timeout | undefined;
  const sweep = () =>
    sweepLapsedWorkspaces({
      billing: platform.billing,
      stopWorkspace: (userId, name) => platform.deployments.service.stopWorkspace(userId, name),
      graceDays: platform.config.billingGraceDays,
      logger: platform.logger,
    }).catch((error) => platform.logger.warn({ err: error }, 'lapse sweep failed'));
  const replica = whileLeaseHeld({
    kv: platform.kv,
    name: 'billing-lapse-sweeper',
    logger: platform.logger,
    onAcquired: () => {
      void sweep();
      timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
      timer.unref();
    },
    onLost: () => {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  });
  replica.start();
  return replica;
}
