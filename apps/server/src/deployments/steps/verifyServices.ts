import { NO_PORTS_MESSAGE } from '@slipway/contract';
import { listProjectContainers } from '../../infra/docker/projectResources.js';
import { verifyHealth } from '../healthVerifier.js';
import { publishedPorts } from '../portDiscovery.js';
import { type RunState, requireTarget, StepFailure } from '../runState.js';

/**
 * A project where no service publishes or exposes a port cannot be reached, so it fails here. Otherwise reads the
 * host ports Docker picked (a container that already stopped has none; the health check reports it).
 */
export async function discoverPorts(state: RunState) {
  const target = requireTarget(state);
  if (Object.keys(state.plannedPorts).length === 0) {
    const expected = state.services.map((s) => s.name);
    throw new StepFailure(NO_PORTS_MESSAGE, {
      port_discovery_failed: true,
      expected_services: expected,
      failure_reason: `No service of ${expected.join(', ')} publishes or exposes a TCP port`,
    });
  }
  state.ports = publishedPorts(await listProjectContainers(target.docker, state.workspace.id));
  for (const port of state.ports) {
    state.log.write(
      `Service ${port.service}: port ${port.containerPort} on ${target.upstream(port.hostPort)}`,
    );
  }
}

/** Live only when every service with a port answers and no container has stopped, within the deadline. */
export async function verifyDeployment(state: RunState) {
  const target = requireTarget(state);
  state.log.write('Checking that the services answer...');
  const result = await verifyHealth({
    docker: target.docker,
    workspaceId: state.workspace.id,
    expectedServices: state.services.filter((s) => !s.inactive).map((s) => s.name),
    ports: state.ports,
    connect: (port) => target.connect(port),
    timeoutMs: state.deps.healthTimeoutMs,
    signal: state.signal,
    onProgress: (line) => state.log.write(line),
  });
  if (!result.healthy) {
    throw new StepFailure(`Health check failed: ${result.failureReason}`, {
      health_check_failed: true,
      failure_reason: result.failureReason,
      failed_services: result.failedServices,
      container_logs: result.containerLogs,
    });
  }
  state.log.write('All services answer');
}
