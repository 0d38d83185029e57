import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEPLOYMENT_CANCELLED_MESSAGE } from '@slipway/contract';
import { RolloutFailed } from '../rollout/rollout.js';
import { StepFailure } from '../rollout/stepFailure.js';
import { closeTarget } from '../vm-providers/vmProvider.js';
import { createBuildLog, createRedactor } from './buildLog.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import type { DeploymentRow } from './deploymentRepository.js';
import { checkoutDirOf, removeWorkDir } from './leftovers.js';
import { deployVersion } from './pipeline.js';
import { rollbackOf } from './rollbackOf.js';
import type { RunContext } from './runContext.js';
import { cleanUpFailure } from './runFailure.js';
import type { Machine } from './stages/machine.js';
import { createStepProgress, publishStatus } from './stepProgress.js';

export const ENV_UNREADABLE_MESSAGE =
  "The workspace's environment variables could not be read (were they encrypted with another key?), so nothing was deployed. Save them again and redeploy.";

/**
 * Runs one deployment, taken from its queued state by the durable runs' home (deploymentRuns.ts), to completed
 * or failed: its stages (pipeline.ts) under the contract's steps, each with a time limit; the home beats its
 * heartbeat and aborts `cancelled` when its owner cancels it. A failure of a first deployment removes whatever
 * it started; a redeploy's rollout has put back what served before it ends.
 */
export async function runDeployment(
  deps: DeploymentDeps,
  claimed: DeploymentRow,
  cancelled: AbortSignal,
): Promise<void> {
  const deploymentId = claimed.id;
  const workspace = claimed.workspaceId ? await deps.workspaces.findById(claimed.workspaceId) : undefined;
  const user = await deps.findUser(claimed.userId);
  const controller = new AbortController();
  let envUnreadable = false;
  const env =
    user && workspace
      ? await deps.loadEnv(user.id, workspace.name).catch((error) => {
          deps.logger.warn({ err: error, deploymentId }, "reading the workspace's variables failed");
          envUnreadable = true;
          return [];
        })
      : [];
  const redact = createRedactor(env.map((variable) => variable.value));
  const log = createBuildLog({
    db: deps.db,
    pubsub: deps.pubsub,
    userId: claimed.userId,
    workspaceName: claimed.workspaceName,
    deploymentId,
    redact,
    onError: (error) => deps.logger.warn({ err: error, deploymentId }, 'storing build log lines failed'),
  });
  // Its owner may cancel it from any replica: the home hears it and the current step is aborted.
  const onCancel = () => controller.abort(new StepFailure(DEPLOYMENT_CANCELLED_MESSAGE));
  if (cancelled.aborted) onCancel();
  else cancelled.addEventListener('abort', onCancel, { once: true });
  const workDir = path.join(deps.workRoot, deploymentId);
  const messageOf = (error: unknown) => redact(error instanceof Error ? error.message : String(error));
  let failureSaid = false;
  const ctx: RunContext | undefined =
    workspace && user
      ? {
          deployment: claimed,
          workspace,
          user,
          env,
          log,
          redact,
          signal: controller.signal,
          workDir,
          firstDeploy: (await deps.repository.completedForWorkspace(workspace.id)).length === 0,
          sayFailure(error) {
            if (failureSaid) return;
            failureSaid = true;
            log.write(`Deployment failed: ${messageOf(error)}`);
          },
        }
      : undefined;
  const progress = createStepProgress(deps, claimed, log, controller);
  const held: { machine?: Machine } = {};
  // Before the row ends: the next deployment of the workspace, free to start then, clones to the same path.
  const removeCheckout = async () => {
    if (workspace && !rollbackOf(claimed))
      await removeWorkDir(deps, checkoutDirOf(deps.workRoot, workspace.id));
  };
  await publishStatus(deps, claimed, 'status');
  try {
    if (!ctx) throw new StepFailure('The workspace or its owner no longer exists');
    // Without them the app would start unconfigured, and their values would go unmasked into the build log.
    if (envUnreadable) throw new StepFailure(ENV_UNREADABLE_MESSAGE);
    await deps.workspaces.update(ctx.workspace.id, { status: 'deploying' });
    await mkdir(workDir, { recursive: true, mode: 0o700 });
    await deployVersion(deps, ctx, progress, held);
    await removeCheckout();
    const row = await deps.repository.update(deploymentId, { status: 'completed', finishedAt: new Date() });
    await log.end();
    await publishStatus(deps, row, 'finished');
  } catch (error) {
    const cause = error instanceof RolloutFailed ? error.cause : error;
    const message = messageOf(cause);
    const metadata = cause instanceof StepFailure ? cause.metadata : {};
    if (ctx) ctx.sayFailure(cause);
    else log.write(`Deployment failed: ${message}`);
    if (!(cause instanceof StepFailure))
      deps.logger.warn({ err: cause, deploymentId }, 'deployment step crashed');
    // Clean up before the row says "failed", so a failed deployment has nothing left running.
    if (ctx) {
      const undone =
        error instanceof RolloutFailed ? error.undone : { servingReplaced: false, restored: false };
      await cleanUpFailure(deps, ctx, held.machine, undone, message);
    }
    await removeCheckout();
    const current = (await deps.repository.findById(deploymentId)) ?? progress.row;
    const row = await deps.repository.update(deploymentId, {
      status: 'failed',
      error: message,
      finishedAt: new Date(),
      steps: progress.failedSteps(current, message),
      metadata: { ...current.metadata, failure_reason: message, ...metadata },
    });
    await log.end();
    await publishStatus(deps, row, 'finished');
  } finally {
    progress.stop();
    cancelled.removeEventListener('abort', onCancel);
    await closeTarget(held.machine?.target);
    await removeWorkDir(deps, workDir);
    // A run leaves megabytes of garbage (build output, status rows, Docker's answers) that V8 keeps as heap
    // until its next full collection; collected now, the idle server goes back to its footprint. Only when the
    // process runs with --expose-gc (scripts/start.sh).
    (globalThis as { gc?: () => void }).gc?.();
  }
}
