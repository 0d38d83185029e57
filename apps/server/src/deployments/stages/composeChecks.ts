import { CheckTimeoutError, runCheckInWorker } from '../../compose-policy/checkWorkerPool.js';
import type { CheckResult, CheckTask } from '../../compose-policy/composeCheck.js';
import type { PolicyViolation } from '../../infra/compose/policyViolation.js';
import { StepFailure } from '../../rollout/stepFailure.js';

/** Runs one compose check off the event loop; limits and time-outs become failures the user can read. */
export async function checkOffLoop<K extends CheckTask['kind']>(
  task: Extract<CheckTask, { kind: K }>,
): Promise<Extract<CheckResult, { kind: K }>> {
  let result: CheckResult;
  try {
    result = await runCheckInWorker(task);
  } catch (error) {
    if (error instanceof CheckTimeoutError) throw new StepFailure(error.message);
    throw error;
  }
  if (result.kind === 'refused') {
    throw new StepFailure(result.message, { failure_reason: result.message });
  }
  return result as Extract<CheckResult, { kind: K }>;
}

/** Fails the step with every violation, each named in the build log. */
export function refuseViolations(log: (line: string) => void, violations: PolicyViolation[]) {
  if (violations.length === 0) return;
  for (const violation of violations) log(`Refused: ${violation.message}`);
  throw new StepFailure(violations.map((v) => v.message).join('; '), {
    failure_reason: 'The compose configuration breaks the sandbox rules',
    policy_violations: violations.map((v) => v.message),
  });
}
