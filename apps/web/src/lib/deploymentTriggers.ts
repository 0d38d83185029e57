import type { DeploymentTrigger } from '@slipway/contract';

/** How each way of starting a deployment is named on screen (revisions list, dashboard). */
export const TRIGGER_LABELS: Record<DeploymentTrigger, string> = {
  deploy: 'Deploy',
  redeploy: 'Redeploy',
  rollback: 'Rollback',
  push: 'Push',
};
