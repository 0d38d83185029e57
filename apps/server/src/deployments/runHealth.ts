import { composeProjectName } from '../infra/docker/conventions.js';
import { type HealthResult, verifyHealth } from './healthVerifier.js';
import type { HostPorts } from './hostPorts.js';
import { type RunState, requireTarget, StepFailure } from './runState.js';
import type { ServiceRole } from './serviceRoles.js';

/** Which containers a health check judges: the workspace's own project unless a redeploy's candidate is meant. */
export interface CheckedProject {
  project: string;
  serviceLabel?: string;
  roles: ServiceRole[];
  hostPorts: HostPorts;
  /** The containers that ran before this deployment's `up` (see verifyHealth). */
  preExisting?: ReadonlySet<string>;
}

/** The health model ({@link verifyHealth}) applied to this run's services and host ports. */
export function checkHealth(
  state: RunState,
  timeoutMs: number,
  failuresOnly = false,
  checked: CheckedProject = {
    project: composeProjectName(state.workspace.id),
    roles: state.roles,
    hostPorts: state.hostPorts,
    ...(state.containersBeforeUp ? { preExisting: state.containersBeforeUp } : {}),
  },
) {
  const target = requireTarget(state);
  return verifyHealth({
    docker: target.docker,
    ...checked,
    urls: {},
    connect: (port) => target.connect(port),
    timeoutMs,
    failuresOnly,
    signal: state.signal,
    onProgress: (line) => state.log.write(line),
  });
}

/** The failure with every failed service's summary; the whole of each failed service's log goes to the build log. */
export function healthFailure(state: RunState, result: HealthResult, reason: string): StepFailure {
  for (const [service, log] of Object.entries(result.fullLogs)) {
    state.log.write(`--- Log of service ${service} ---`);
    for (const line of log.split('\n')) if (line.trim()) state.log.write(line);
    state.log.write(`--- End of the log of service ${service} ---`);
  }
  const containerLogs = Object.fromEntries(
    Object.entries(result.containerLogs).map(([service, text]) => [service, state.redact(text)]),
  );
  return new StepFailure(`Health check failed: ${state.redact(reason)}`, {
    health_check_failed: true,
    failure_reason: state.redact(reason),
    failed_services: result.failedServices,
    container_logs: containerLogs,
    service_states: result.states.map((s) => ({ ...s, message: s.message && state.redact(s.message) })),
  });
}

/**
 * `up` stopped early (a one-shot service the others wait for failed, an image could not be pulled): the
 * services that already failed say why better than Compose's last line.
 */
export async function reportStartFailure(state: RunState, error: unknown): Promise<unknown> {
  if (!(error instanceof StepFailure) || state.roles.length === 0) return error;
  const result = await checkHealth(state, 0, true).catch(() => undefined);
  if (!result || result.failedServices.length === 0) return error;
  return healthFailure(state, result, result.failureReason ?? error.message);
}
