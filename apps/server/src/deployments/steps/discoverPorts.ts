import { NO_PORTS_MESSAGE } from '@slipway/contract';
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
