import { checkHealth, healthFailure } from '../runHealth.js';
import type { RunState } from '../runState.js';
import { startServingProject } from '../servingProject.js';
import { switchToCandidate, verifyCandidate } from '../sideBySide.js';

/**
 * Live only when every service is healthy, running stably or completed, within the deadline. A redeploy
 * whose changed services started beside the serving version verifies them first: only then do their
 * requests switch to them, and the workspace's own project is brought to this version and verified.
 */
export async function verifyDeployment(state: RunState) {
  if (state.candidate) {
    await verifyCandidate(state, state.candidate);
    await switchToCandidate(state, state.candidate);
    await startServingProject(state);
  }
  state.log.write('Checking that the services answer...');
  const result = await checkHealth(state, state.deps.healthTimeoutMs);
  state.serviceStates = result.states;
  if (!result.healthy) throw healthFailure(state, result, result.failureReason ?? 'Unknown failure');
  for (const service of result.states) state.log.write(`Service ${service.service}: ${service.state}`);
  state.log.write('All services are up');
}
