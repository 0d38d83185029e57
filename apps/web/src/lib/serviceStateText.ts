import type { ServiceState } from '@slipway/contract';

/** The plain text of a service's state, as the deployment and dashboard screens show it. */
export function serviceStateText(service: Pick<ServiceState, 'state' | 'exit_code'>): string {
  switch (service.state) {
    case 'starting':
      return 'Starting';
    case 'healthy':
      return 'Healthy';
    case 'running':
      return 'Running';
    case 'completed':
      return 'Completed';
    case 'exited':
      return service.exit_code === null ? 'Exited' : `Exited (code ${service.exit_code})`;
    case 'restarting':
      return 'Restarting';
    case 'oom_killed':
      return 'Killed for memory (OOM)';
    case 'unhealthy':
      return 'Unhealthy';
  }
}

/** Whether the state means the service is fine (green) rather than failed or not there yet. */
export const isGoodState = (state: ServiceState['state']) =>
  state === 'healthy' || state === 'running' || state === 'completed';
