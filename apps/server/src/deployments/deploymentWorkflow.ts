import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  DEPLOYMENT_CANCELLED_MESSAGE,
  type DeploymentStepName,
  PLATFORM_RESTARTED_MESSAGE,
} from '@slipway/contract';
import type { StepRecord } from '../infra/db/schema.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import { listProjectContainers } from '../infra/docker/projectResources.js';
import { closeTarget } from '../vm-providers/vmProvider.js';
import { createBuildLog, createRedactor } from './buildLog.js';
import type { DeploymentRow } from './deploymentRepository.js';
import { connectForCleanUp } from './engineConnection.js';
import { removeLeftovers, removeRoutes, removeWorkDir } from './leftovers.js';
import { presentStatus } from './presenter.js';
import { rollbackOf } from './revisionPlans.js';
import { type RunState, StepFailure, type WorkflowDeps } from './runState.js';
import { restorePreviousVersion } from './servingProject.js';
import { abandonCandidate, retireCandidate } from './sideBySide.js';
import { configureRouting } from './steps/configureRouting.js';
import { deployApplication } from './steps/deployApplication.js';
import { detectProject } from './steps/detectProject.js';
import { discoverPorts } from './steps/discoverPorts.js';
import { fetchSource } from './steps/fetchSource.js';
import { policyCheck } from './steps/policyCheck.js';
import { postDeployment } from './steps/postDeployment.js';
import { provisionVm } from './steps/provisionVm.js';
import { verifyDeployment } from './steps/verifyDeployment.js';

const MINUTE = 60_000;

export const ENV_UNREADABLE_MESSAGE =
  "The workspace's environment variables could not be read (were they encrypted with another key?), so nothing was deployed. Save them again and redeploy.";

/**
 * Each step of the contract's DEPLOYMENT_STEPS with its function and time limit: a step added to the contract
 * without one here (or one here the contract does not name) fails to compile.
 */
const STEPS: Record<DeploymentStepName, { run: (state: RunState) => Promise<void>; timeoutMs: number }> = {
  'provision-vm': { run: provisionVm, timeoutMs: 15 * MINUTE },
  'fetch-source': { run: fetchSource, timeoutMs: 6 * MINUTE },
  'detect-project': { run: detectProject, timeoutMs: 2 * MINUTE },
  'policy-check': { run: policyCheck, timeoutMs: 1 * MINUTE },
  'deploy-application': { run: deployApplication, timeoutMs: 45 * MINUTE },
  'discover-ports': { run: discoverPorts, timeoutMs: 1 * MINUTE },
  'verify-deployment': { run: verifyDeployment, timeoutMs: 5 * MINUTE },
  'configure-routing': { run: configureRouting, timeoutMs: 2 * MINUTE },
  'post-deployment': { run: postDeployment, timeoutMs: 5 * MINUTE },
};

export async function publishStatus(deps: WorkflowDeps, row: DeploymentRow, type: 'status' | 'finished') {
  await deps.pubsub
    .publish(CHANNELS.workflow(row.sessionId), { type, ...presentStatus(row) })
    .catch((error) =>
      deps.logger.warn({ err: error, deploymentId: row.id }, 'publishing a deployment status failed'),
    );
}

const withStep = (steps: StepRecord[], index: number, patch: Partial<StepRecord>) =>
  steps.map((step, i) => (i === index ? { ...step, ...patch } : step));

/**
 * Runs one deployment, taken from its queued state by the durable runs' home (deploymentRuns.ts), to completed
 * or failed. Every step has a time limit, the home beats its heartbeat and aborts `cancelled` when its owner
 * cancels it, and a failure of a first deployment removes whatever it started.
 */
export async function runDeployment(
  deps: WorkflowDeps,
  claimed: DeploymentRow,
  cancelled: AbortSignal,
): Promise<void> {
  const deploymentId = claimed.id;
  const workspace = claimed.workspaceId ? await deps.workspaces.findById(claimed.workspaceId) : undefined;
  const user = await deps.findUser(claimed.userId);
  let row = claimed;
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
  const rollbackTo =
    workspace && rollbackOf(claimed) ? await deps.plans.load(workspace.id, rollbackOf(claimed)!) : undefined;
  const state: RunState | undefined =
    workspace && user
      ? {
          deps,
          deployment: claimed,
          workspace,
          user,
          signal: controller.signal,
          log,
          env,
          ...(rollbackTo ? { rollbackTo } : {}),
          firstDeploy: (await deps.repository.completedForWorkspace(workspace.id)).length === 0,
          workDir,
          services: [],
          imageNames: {},
          imageIds: {},
          containersStarted: false,
          plannedPorts: {},
          ports: [],
          roles: [],
          hostPorts: {},
          serviceStates: [],
          serviceUrls: {},
          redact,
        }
      : undefined;
  await publishStatus(deps, row, 'status');
  let index = 0;
  try {
    if (!state) throw new StepFailure('The workspace or its owner no longer exists');
    // Without them the app would start unconfigured, and their values would go unmasked into the build log.
    if (envUnreadable) throw new StepFailure(ENV_UNREADABLE_MESSAGE);
    await deps.workspaces.update(state.workspace.id, { status: 'deploying' });
    await mkdir(workDir, { recursive: true, mode: 0o700 });
    for (; index < row.steps.length; index++) {
      const step = row.steps[index]!;
      // A row's steps were written from the contract, possibly by another version of Slipway.
      const definition = Object.hasOwn(STEPS, step.name) ? STEPS[step.name as DeploymentStepName] : undefined;
      if (!definition) throw new Error(`Unknown step ${step.name}`);
      if (controller.signal.aborted) throw controller.signal.reason;
      row = await deps.repository.update(deploymentId, {
        currentStep: index,
        steps: withStep(row.steps, index, { status: 'in_progress', startedAt: new Date().toISOString() }),
        heartbeatAt: new Date(),
      });
      await publishStatus(deps, row, 'status');
      log.write(`==> ${step.name}: ${step.description}`);
      // Stored before the step runs: a worker that dies in the step leaves a log that says where it was.
      await log.flush();
      await runWithTimeout(step.name, definition.timeoutMs, controller, () => definition.run(state));
      row = await deps.repository.update(deploymentId, {
        steps: withStep(row.steps, index, { status: 'completed', finishedAt: new Date().toISOString() }),
      });
      await publishStatus(deps, row, 'status');
    }
    // Before the row ends: the next deployment of the workspace, free to start then, clones to the same path.
    await removeCheckout(deps, state);
    row = await deps.repository.update(deploymentId, { status: 'completed', finishedAt: new Date() });
    await log.end();
    await publishStatus(deps, row, 'finished');
  } catch (error) {
    const message = redact(error instanceof Error ? error.message : String(error));
    const metadata = error instanceof StepFailure ? error.metadata : {};
    log.write(`Deployment failed: ${message}`);
    if (!(error instanceof StepFailure))
      deps.logger.warn({ err: error, deploymentId }, 'deployment step crashed');
    // Clean up before the row says "failed", so a failed deployment has nothing left running.
    if (state) await cleanUpFailure(deps, state, message);
    await removeCheckout(deps, state);
    const current = (await deps.repository.findById(deploymentId)) ?? row;
    row = await deps.repository.update(deploymentId, {
      status: 'failed',
      error: message,
      finishedAt: new Date(),
      steps: withStep(current.steps, index, {
        status: 'failed',
        finishedAt: new Date().toISOString(),
        error: message,
      }),
      metadata: { ...current.metadata, failure_reason: message, ...metadata },
    });
    await log.end();
    await publishStatus(deps, row, 'finished');
  } finally {
    cancelled.removeEventListener('abort', onCancel);
    await closeTarget(state?.target);
    await removeWorkDir(deps, workDir);
    // A run leaves megabytes of garbage (build output, status rows, Docker's answers) that V8 keeps as heap
    // until its next full collection; collected now, the idle server goes back to its footprint. Only when the
    // process runs with --expose-gc (scripts/start.sh).
    (globalThis as { gc?: () => void }).gc?.();
  }
}

/** The workspace's checkout (leftovers.ts), once the run no longer needs it. */
async function removeCheckout(deps: WorkflowDeps, state: RunState | undefined) {
  if (state?.repoDir) await removeWorkDir(deps, state.repoDir);
}

async function runWithTimeout(
  name: string,
  timeoutMs: number,
  controller: AbortController,
  run: () => Promise<void>,
) {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  // Ends the step when the run is aborted: its time limit passed, or its owner cancelled it.
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(controller.signal.reason);
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(
      () =>
        controller.abort(new StepFailure(`Step '${name}' timed out after ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([run(), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) controller.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A failed first deployment leaves nothing behind; a failed redeploy keeps what was running, or, when it had
 * replaced the containers already, starts the last good version again.
 */
async function cleanUpFailure(deps: WorkflowDeps, state: RunState, message: string) {
  const { workspace } = state;
  if (state.firstDeploy && state.target) {
    state.log.write('Removing the containers and networks this deployment started');
    await removeLeftovers(deps, state.target, workspace.id);
    await removeRoutes(deps, workspace.id, 'failed first deployment');
  }
  // A redeploy that had replaced the running containers puts the last good version back.
  const restored =
    !state.firstDeploy &&
    state.containersStarted &&
    (await restorePreviousVersion(state).catch((error: Error) => {
      state.log.write(`The previous version could not be started again: ${error.message}`);
      return false;
    }));
  if (restored) state.log.write('The previous version is running again');
  if (state.candidate) {
    await retireCandidate(state, 'restore').catch((error: Error) =>
      state.log.write(
        `The new version started beside the serving one could not be removed: ${error.message}`,
      ),
    );
    if (!state.containersStarted) state.log.write('The previous version kept serving throughout');
  }
  await deps.workspaces.update(workspace.id, {
    status:
      state.firstDeploy || (state.containersStarted && !restored)
        ? 'failed'
        : workspace.status === 'deploying'
          ? 'live'
          : workspace.status,
    lastError: message,
    lastErrorTime: new Date(),
  });
}

/** Ends a deployment whose worker died; only one caller wins the transition and cleans up. */
export async function failInterrupted(deps: WorkflowDeps, row: DeploymentRow): Promise<void> {
  const failed = await deps.repository.transition(row.id, ['running', 'queued'], {
    status: 'failed',
    error: PLATFORM_RESTARTED_MESSAGE,
    finishedAt: new Date(),
    steps: row.steps.map((step) =>
      step.status === 'in_progress'
        ? {
            ...step,
            status: 'failed',
            error: PLATFORM_RESTARTED_MESSAGE,
            finishedAt: new Date().toISOString(),
          }
        : step,
    ),
    metadata: { ...row.metadata, failure_reason: PLATFORM_RESTARTED_MESSAGE },
  });
  if (!failed) return;
  const workspace = failed.workspaceId ? await deps.workspaces.findById(failed.workspaceId) : undefined;
  let replacedRunningVersion = false;
  if (workspace) {
    const firstDeploy = (await deps.repository.completedForWorkspace(workspace.id)).length === 0;
    const vm = workspace.vmId ? await deps.workspaces.findVm(workspace.vmId) : undefined;
    const target = await connectForCleanUp(deps, vm);
    if (target) {
      await abandonCandidate(deps, target.docker, workspace);
      if (firstDeploy) {
        await removeLeftovers(deps, target, workspace.id);
      } else {
        // A redeploy that died after starting containers left them in place of the serving version.
        const startedAt = failed.startedAt?.getTime() ?? Number.POSITIVE_INFINITY;
        const containers = await listProjectContainers(target.docker, workspace.id).catch((error) => {
          deps.logger.warn(
            { err: error, workspaceId: workspace.id },
            "listing an interrupted redeploy's containers failed",
          );
          return [];
        });
        replacedRunningVersion = containers.some((container) => container.Created * 1000 >= startedAt);
      }
      await closeTarget(target);
    }
    await deps.workspaces.update(workspace.id, {
      status: firstDeploy ? 'failed' : 'live',
      lastError: PLATFORM_RESTARTED_MESSAGE,
      lastErrorTime: new Date(),
    });
  }
  const log = createBuildLog({
    db: deps.db,
    pubsub: deps.pubsub,
    userId: failed.userId,
    workspaceName: failed.workspaceName,
    deploymentId: failed.id,
    redact: (text) => text,
    onError: (error) =>
      deps.logger.warn({ err: error, deploymentId: failed.id }, 'storing build log lines failed'),
  });
  log.write(`Deployment failed: ${PLATFORM_RESTARTED_MESSAGE}`);
  if (replacedRunningVersion)
    log.write('Its containers had replaced the serving version: starting the last good version again');
  await log.end();
  // Its checkout is the workspace's (leftovers.ts): the next deployment's clone or the workspace's deletion
  // removes it, so a deployment started meanwhile keeps its own.
  await removeWorkDir(deps, path.join(deps.workRoot, failed.id));
  await publishStatus(deps, failed, 'finished');
  if (replacedRunningVersion && deps.restoreLastGood) {
    await deps
      .restoreLastGood(failed)
      .catch((error) =>
        deps.logger.warn({ err: error, deploymentId: failed.id }, 'restoring the last good version failed'),
      );
  }
}
