import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEPLOYMENT_CANCELLED_MESSAGE } from '@slipway/contract';
import type { DurableKind } from '../jobs/durableRuns.js';
import { keptHostPorts } from '../rollout/hostPorts.js';
import { apply, type Rollout, RolloutFailed, type Serving } from '../rollout/rollout.js';
import type { RolloutRun } from '../rollout/rolloutRun.js';
import { StepFailure } from '../rollout/stepFailure.js';
import { untilStopped } from '../rollout/untilStopped.js';
import { closeTarget } from '../vm-providers/vmProvider.js';
import { createBuildLog, createRedactor } from './buildLog.js';
import type { Deploy } from './deploy.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import { ACTIVE_STATUSES, type DeploymentRow } from './deploymentRepository.js';
import { failInterrupted } from './interruptedRun.js';
import { checkoutDirOf, removeWorkDir } from './leftovers.js';
import { rollbackOf } from './rollbackOf.js';
import type { RunContext } from './runContext.js';
import { cleanUpFailure } from './runFailure.js';
import { fetchSource } from './stages/checkout.js';
import { type Machine, provisionMachine } from './stages/machine.js';
import { planVersion } from './stages/plan.js';
import { policyCheck } from './stages/policyCheck.js';
import { postDeployment } from './stages/postDeployment.js';
import { detectProject } from './stages/project.js';
import { createStepProgress, publishStatus, type StepProgress } from './stepProgress.js';

export const ENV_UNREADABLE_MESSAGE =
  "The workspace's environment variables could not be read (were they encrypted with another key?), so nothing was deployed. Save them again and redeploy.";

/**
 * Deployments as durable runs: taken from `queued` to `running` once; after a crash taken again by the home's
 * reaper and ended with the restart's reason (`failInterrupted`); when the dead run had replaced the serving
 * version, the reaper deploys the last good version again (a `restore-last-good` trigger).
 */
export function deploymentKind(
  deps: DeploymentDeps,
  deploy: Deploy,
): DurableKind<'deployment.run', DeploymentRow> {
  const { repository } = deps;
  return {
    job: 'deployment.run',
    async claim(id, now, staleBefore) {
      const first = await repository.transition(id, ['queued'], {
        status: 'running',
        startedAt: now,
        heartbeatAt: now,
      });
      if (first) return { row: first, resumed: false };
      const again = await repository.takeStale(id, now, staleBefore);
      return again ? { row: again, resumed: true } : undefined;
    },
    beat: (id, now) => repository.heartbeat(id, now),
    stale: async (before) => (await repository.stale(before)).map((row) => row.id),
    ended: async (id) => {
      const row = await repository.findById(id);
      return !row || !ACTIVE_STATUSES.includes(row.status);
    },
    run: (row, context) => runDeployment(deps, row, context.signal),
    async resume(row) {
      const interrupted = await failInterrupted(deps, row);
      if (!interrupted) return;
      await deploy({ kind: 'restore-last-good', interrupted }).catch((error) =>
        deps.logger.warn({ err: error, deploymentId: row.id }, 'restoring the last good version failed'),
      );
    },
  };
}

/**
 * Runs one deployment, taken from its queued state by the durable runs' home (deploymentKind, above), to
 * completed or failed: its stages (deployVersion, below) under the contract's steps, each with a time limit; the
 * home beats its heartbeat and aborts `cancelled` when its owner cancels it. A failure of a first deployment removes whatever
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
      await cleanUpFailure(deps, ctx, held.machine?.engine, undone, message);
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

/**
 * One deployment, stage by stage, each handing its value to the next — Machine → Checkout → Project → Plan →
 * Rollout — under the contract's nine steps its users follow. `held.machine` is the VM connection, for the
 * failure path and the run's end.
 */
export async function deployVersion(
  deps: DeploymentDeps,
  ctx: RunContext,
  progress: StepProgress,
  held: { machine?: Machine },
): Promise<void> {
  const { deployment, workspace, signal } = ctx;
  const log = (line: string) => ctx.log.write(line);
  const run = { log, signal, workDir: ctx.workDir };

  await progress.enter('provision-vm');
  const machine = await untilStopped(signal, provisionMachine(deps, workspace, run));
  held.machine = machine;
  await progress.enter('fetch-source');
  const source = await untilStopped(signal, fetchSource(deps, deployment, ctx.user, workspace, run));
  await progress.enter('detect-project');
  const project = await untilStopped(signal, detectProject(source, workspace.id, ctx.env, log));
  await progress.enter('policy-check');
  const replicas = policyCheck(project, workspace, log);

  await progress.enter('deploy-application');
  const serving = await untilStopped(signal, servingOf(deps, ctx));
  const planned = await untilStopped(
    signal,
    planVersion(deps, {
      workspace,
      deploymentId: deployment.id,
      env: ctx.env,
      run,
      machine,
      source,
      project,
      replicas,
      serving: serving.plan,
    }),
  );
  // Starts it, and goes on through discover-ports, verify-deployment and configure-routing.
  const rollout: Rollout = await apply(
    planned.plan,
    machine.engine,
    serving,
    rolloutRun(deps, ctx, progress),
  );

  await progress.enter('post-deployment');
  await untilStopped(signal, postDeployment(deps, { ...ctx, log }, machine, planned, rollout));
  await progress.finish();
}

/** What serves before this deployment: the last successful one's plan and the host ports it kept. */
async function servingOf(deps: DeploymentDeps, ctx: RunContext): Promise<Serving> {
  const [last] = (await deps.repository.completedForWorkspace(ctx.workspace.id)).filter(
    (row) => row.id !== ctx.deployment.id,
  );
  return {
    plan: last ? await deps.plans.load(ctx.workspace.id, last.id) : undefined,
    firstDeploy: ctx.firstDeploy,
    hostPorts: keptHostPorts(last?.metadata.host_ports),
  };
}

/** The rollout's part of the run: its steps, its log, the routes it publishes, its record of host ports. */
function rolloutRun(deps: DeploymentDeps, ctx: RunContext, progress: StepProgress): RolloutRun {
  return {
    log: (line) => ctx.log.write(line),
    signal: ctx.signal,
    workDir: ctx.workDir,
    workspace: ctx.workspace,
    deploymentId: ctx.deployment.id,
    env: ctx.env,
    redact: ctx.redact,
    healthTimeoutMs: deps.healthTimeoutMs,
    routes: { ingress: deps.ingress, workspaces: deps.workspaces },
    logger: deps.logger,
    async recordHostPorts(hostPorts) {
      await deps.repository.update(ctx.deployment.id, {
        metadata: { ...ctx.deployment.metadata, host_ports: hostPorts },
      });
    },
    failing: ctx.sayFailure,
    enter: progress.enter,
  };
}
