import type { ServiceState } from '@slipway/contract';
import type Docker from 'dockerode';

/**
 * A running workspace's service as its container is now, in the deployment's state names: killed for memory,
 * restarting, exited with its code (completed for a one-shot that ended with 0 and is not restarted), starting
 * or healthy/unhealthy by its healthcheck, else running.
 */
export function liveServiceState(
  info: Docker.ContainerInspectInfo,
): Pick<ServiceState, 'state' | 'exit_code'> {
  const state = info.State;
  const exitCode = typeof state.ExitCode === 'number' ? state.ExitCode : null;
  if (state.OOMKilled) return { state: 'oom_killed', exit_code: exitCode };
  if (state.Restarting) return { state: 'restarting', exit_code: exitCode };
  if (!state.Running) {
    if (state.Status === 'created') return { state: 'starting', exit_code: null };
    const policy = info.HostConfig?.RestartPolicy?.Name ?? '';
    const oneShot = policy === '' || policy === 'no' || policy === 'on-failure';
    return exitCode === 0 && oneShot
      ? { state: 'completed', exit_code: 0 }
      : { state: 'exited', exit_code: exitCode };
  }
  const health = state.Health?.Status;
  if (health === 'healthy') return { state: 'healthy', exit_code: null };
  if (health === 'unhealthy') return { state: 'unhealthy', exit_code: null };
  if (health === 'starting') return { state: 'starting', exit_code: null };
  return { state: 'running', exit_code: null };
}
