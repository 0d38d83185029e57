import type { DeploymentStepName } from '@slipway/contract';
import type { StepRecord } from '../infra/db/schema.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import { StepFailure } from '../rollout/stepFailure.js';
import type { BuildLog } from './buildLog.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import type { DeploymentRow } from './deploymentRepository.js';
import { presentStatus } from './presenter.js';

const MINUTE = 60_000;

/**
 * The time limit of each step of the contract's DEPLOYMENT_STEPS: a step added to the contract without one here
 * (or one here the contract does not name) fails to compile.
 */
const STEP_TIMEOUTS: Record<DeploymentStepName, number> = {
  'provision-vm': 15 * MINUTE,
  'fetch-source': 6 * MINUTE,
  'detect-project': 2 * MINUTE,
  'policy-check': 1 * MINUTE,
  'deploy-application': 45 * MINUTE,
  'discover-ports': 1 * MINUTE,
  'verify-deployment': 5 * MINUTE,
  'configure-routing': 2 * MINUTE,
  'post-deployment': 5 * MINUTE,
};

export async function publishStatus(
  deps: Pick<DeploymentDeps, 'pubsub' | 'logger'>,
  row: DeploymentRow,
  type: 'status' | 'finished',
) {
  await deps.pubsub
    .publish(CHANNELS.workflow(row.sessionId), { type, ...presentStatus(row) })
    .catch((error) =>
      deps.logger.warn({ err: error, deploymentId: row.id }, 'publishing a deployment status failed'),
    );
}

const withStep = (steps: StepRecord[], index: number, patch: Partial<StepRecord>) =>
  steps.map((step, i) => (i === index ? { ...step, ...patch } : step));

/**
 * A deployment's progress as its users see it: the contract's steps, one after another, each stored on the row
 * with its times and published on the deployment's channel, its name in the build log. A step's time limit runs
 * from the moment it is entered: past it, `controller` is aborted with the step's failure.
 */
export function createStepProgress(
  deps: Pick<DeploymentDeps, 'repository' | 'pubsub' | 'logger'>,
  claimed: DeploymentRow,
  log: BuildLog,
  controller: AbortController,
) {
  let row = claimed;
  let index = -1;
  let timer: NodeJS.Timeout | undefined;

  async function complete() {
    if (index < 0) return;
    row = await deps.repository.update(row.id, {
      steps: withStep(row.steps, index, { status: 'completed', finishedAt: new Date().toISOString() }),
    });
    await publishStatus(deps, row, 'status');
  }

  return {
    get row() {
      return row;
    },

    /** Ends the current step and starts `name`, the next of the row's steps. */
    async enter(name: DeploymentStepName) {
      await complete();
      // From here a failure is this step's.
      index++;
      if (controller.signal.aborted) throw controller.signal.reason;
      // A row's steps were written from the contract, possibly by another version of Slipway.
      const step = row.steps[index];
      if (step?.name !== name) throw new Error(`Unknown step ${step?.name ?? name}`);
      row = await deps.repository.update(row.id, {
        currentStep: index,
        steps: withStep(row.steps, index, { status: 'in_progress', startedAt: new Date().toISOString() }),
        heartbeatAt: new Date(),
      });
      await publishStatus(deps, row, 'status');
      log.write(`==> ${step.name}: ${step.description}`);
      // Stored before the step runs: a worker that dies in the step leaves a log that says where it was.
      await log.flush();
      clearTimeout(timer);
      const timeoutMs = STEP_TIMEOUTS[name];
      timer = setTimeout(
        () =>
          controller.abort(
            new StepFailure(`Step '${name}' timed out after ${Math.round(timeoutMs / 1000)} s`),
          ),
        timeoutMs,
      );
    },

    /** Ends the last step: every step of the row must have run. */
    async finish() {
      clearTimeout(timer);
      if (index !== row.steps.length - 1) throw new Error(`Step ${row.steps[index + 1]?.name} was not run`);
      await complete();
    },

    /** Marks the current step failed with `message` (the row's own failure is the caller's). */
    failedSteps(current: DeploymentRow, message: string) {
      return withStep(current.steps, Math.max(index, 0), {
        status: 'failed',
        finishedAt: new Date().toISOString(),
        error: message,
      });
    },

    stop() {
      clearTimeout(timer);
    },
  };
}

export type StepProgress = ReturnType<typeof createStepProgress>;
