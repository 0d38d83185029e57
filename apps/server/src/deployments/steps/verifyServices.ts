import { NO_PORTS_MESSAGE } from '@slipway/contract';
import { type HealthResult, verifyHealth } from '../healthVerifier.js';
import { type RunState, requireTarget, StepFailure } from '../runState.js';

/**
 * A project where no service publishes a port cannot be reached, so it fails here. Otherwise lists the fixed
 * host port of each published container port (only services with `ports:` are public).
 */
export async function discoverPorts(state: RunState) {
  const target = requireTarget(state);
  if (Object.keys(state.plannedPorts).length === 0) {
    const expected = state.services.map((s) => s.name);
    throw new StepFailure(NO_PORTS_MESSAGE, {
      port_discovery_failed: true,
      expected_services: expected,
      failure_reason: `No service of ${expected.join(', ')} publishes a TCP port`,
    });
  }
  state.ports = Object.entries(state.hostPorts).flatMap(([service, ports]) =>
    Object.entries(ports).map(([containerPort, hostPort]) => ({
      service,
      containerPort: Number(containerPort),
      hostPort,
    })),
  );
  for (const port of state.ports) {
    state.log.write(
      `Service ${port.service}: port ${port.containerPort} on ${target.upstream(port.hostPort)}`,
    );
  }
}

function checkHealth(state: RunState, timeoutMs: number, failuresOnly = false) {
  const target = requireTarget(state);
  return verifyHealth({
    docker: target.docker,
    workspaceId: state.workspace.id,
    roles: state.roles,
    hostPorts: state.hostPorts,
    urls: {},
    connect: (port) => target.connect(port),
    timeoutMs,
    failuresOnly,
    signal: state.signal,
    onProgress: (line) => state.log.write(line),
  });
}

/** The failure with every failed service's summary; the whole of each failed service's log goes to the build log. */
function healthFailure(state: RunState, result: HealthResult, reason: string): StepFailure {
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

/** Live only when every service is healthy, running stably or completed, within the deadline. */
export async function verifyDeployment(state: RunState) {
  state.log.write('Checking that the services answer...');
  const result = await checkHealth(state, state.deps.healthTimeoutMs);
  state.serviceStates = result.states;
  if (!result.healthy) throw healthFailure(state, result, result.failureReason ?? 'Unknown failure');
  for (const service of result.states) state.log.write(`Service ${service.service}: ${service.state}`);
  state.log.write('All services are up');
}
