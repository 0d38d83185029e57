import { type RunState, StepFailure } from '../runState.js';
import { refuseViolations } from './composeChecks.js';

/**
 * Refuses a project that would escape its sandbox, naming the service and key, before anything runs. The rules
 * (infra/compose/composePolicy.ts, dockerfilePolicy.ts, the repository jail) ran in the check worker while the
 * project was detected; this step reports them.
 */
export async function policyCheck(state: RunState) {
  if (!state.policyViolations) throw new StepFailure('The compose configuration was not checked');
  refuseViolations(state, state.policyViolations);
  state.log.write('The compose configuration follows the sandbox rules');
}
