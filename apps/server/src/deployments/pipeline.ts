import type { HostPorts } from '../rollout/hostPorts.js';
import { apply, type Rollout, type Serving } from '../rollout/rollout.js';
import type { RolloutRun } from '../rollout/rolloutRun.js';
import { untilStopped } from '../rollout/untilStopped.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import type { RunContext } from './runContext.js';
import { fetchSource } from './stages/checkout.js';
import { type Machine, provisionMachine } from './stages/machine.js';
import { planVersion } from './stages/plan.js';
import { policyCheck } from './stages/policyCheck.js';
import { postDeployment } from './stages/postDeployment.js';
import { detectProject } from './stages/project.js';
import type { StepProgress } from './stepProgress.js';

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
    hostPorts: (last?.metadata as { host_ports?: HostPorts } | undefined)?.host_ports ?? {},
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
