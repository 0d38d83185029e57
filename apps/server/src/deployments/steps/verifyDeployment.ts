import { checkHealth, healthFailure } from '../runHealth.js';
import type { RunState } from '../runState.js';

/** Live only when every service is healthy, running stably or completed, within the deadline. */
export async function verifyDeployment(state: RunState) {
  state.log.write('Checking that the services answer...');
  const result = await checkHealth(state, state.deps.healthTimeoutMs);
  state.serviceStates = result.states;
  if (!result.healthy) throw healthFailure(state, result, result.failureReason ?? 'Unknown failure');
  for (const service of result.states) state.log.write(`Service ${service.service}: ${service.state}`);
  state.log.write('All services are up');
}
