import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import type { Obj } from '../infra/compose/composeMerge.js';
import { finalizeConfig, stringifyCompose } from '../infra/compose/composeProject.js';
import { defaultSubnetPool, lostSubnetRace, placeNetworks } from '../infra/compose/networkSubnets.js';
import { CommandError } from '../infra/compose/runCommand.js';
import { variableReferences } from '../infra/compose/variableReferences.js';
import { composeProjectName } from '../infra/docker/conventions.js';
import { listProjectContainers } from '../infra/docker/projectResources.js';
import { classifyComposeFailure } from './failureReport.js';
import { envDigest, type RevisionPlan } from './revisionPlans.js';
import { reportStartFailure } from './runHealth.js';
import { type ProjectFile, type RunState, requireTarget, StepFailure } from './runState.js';
import { applyRuntimePlan } from './runtimePlan.js';
import type { VersionView } from './serviceChanges.js';
import { replicasOf } from './serviceRoles.js';

export const UP_TIMEOUT_MS = 10 * 60_000;
export const BUILD_TIMEOUT_MS = 30 * 60_000;

/** What one run of the Compose CLI does: build (Compose v2) or start. */
export type ComposeWork = 'build' | 'up';

/**
 * The VM size is the workspace's budget: its memory and its 2 vCPUs are divided evenly among the services
 * (pure Compose limits, so it works the same on every engine the providers reach).
 */
export function limitsFor(vmSizeId: string, serviceCount: number) {
  const size = findVmSize(vmSizeId) ?? findVmSize(DEFAULT_VM_SIZE)!;
  const n = Math.max(1, serviceCount);
  return {
    cpusPerService: Math.max(0.1, size.vcpus / n),
    memoryBytesPerService: Math.max(64, Math.floor(size.memoryMb / n)) * 1024 * 1024,
  };
}

/** Where the workspace's bind-mounted files and revision plans live: DATA_DIR, the runs' work root's parent. */
export const dataDirOf = (state: RunState) => path.dirname(state.deps.workRoot);

/** This run's version, as a plan that can start it again later without building. */
export const currentPlan = (state: RunState): RevisionPlan => ({
  deploymentId: state.deployment.id,
  commitSha: state.commitSha ?? null,
  normalized: state.normalized!,
  services: state.services,
  imageNames: state.imageNames,
  roles: state.roles,
  hostPorts: state.hostPorts,
  envDigest: envDigest(state.workspace.id, state.env),
});

/** The plan of the version serving now: the workspace's last successful deployment before this one. */
export async function servingPlan(state: RunState): Promise<RevisionPlan | undefined> {
  const serving = (await state.deps.repository.completedForWorkspace(state.workspace.id)).find(
    (row) => row.id !== state.deployment.id,
  );
  return serving ? state.deps.plans.load(state.workspace.id, serving.id) : undefined;
}

/** The project file Slipway runs for a version: its plan on this VM, with the workspace's variables or not. */
export function projectFor(state: RunState, plan: RevisionPlan, withEnv: boolean) {
  const target = requireTarget(state);
  const config = finalizeConfig(plan.normalized, {
    workspaceId: state.workspace.id,
    userId: state.workspace.userId,
    deploymentId: plan.deploymentId,
    imageNames: plan.imageNames,
    publishAddress: target.publishAddress,
    // Every replica is a container of its own: the VM is divided among all of them.
    limits: limitsFor(
      state.workspace.vmSize,
      plan.services
        .filter((s) => !s.inactive)
        .reduce((sum, s) => sum + replicasOf(plan.roles.find((role) => role.name === s.name)), 0),
    ),
    ...(withEnv ? { env: state.env } : {}),
  });
  return applyRuntimePlan(config, {
    roles: plan.roles,
    hostPorts: plan.hostPorts,
    publishAddress: target.publishAddress,
  });
}

/** A version as Compose will see it, to compare with another (see serviceChanges). */
export const versionView = (state: RunState, plan: RevisionPlan): VersionView => ({
  services: (projectFor(state, plan, false).services ?? {}) as VersionView['services'],
  envDigest: plan.envDigest,
});

/** The workspace's own project: the one its users' URLs point at between deployments. */
export const servingProjectFile = (state: RunState): ProjectFile => ({
  project: composeProjectName(state.workspace.id),
  file: state.finalComposeFile!,
});

const lastMeaningfulLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .pop();

/**
 * Writes a project file for Compose: the workspace's variables in it only as references (variableReferences.ts),
 * their values given to Compose in its environment by runCompose — no file Slipway writes holds one.
 */
export async function writeProjectFile(state: RunState, file: string, project: unknown) {
  const text = stringifyCompose(project as Record<string, unknown>, variableReferences(state.env));
  await writeFile(file, text, { mode: 0o600 });
}

/** Runs the Compose CLI on one of the run's project files, output to the build log, failures in plain words. */
export async function runCompose(
  state: RunState,
  target: ProjectFile,
  args: string[],
  timeoutMs: number,
  what: { label: string; kind: ComposeWork },
  onLine?: (line: string) => void,
) {
  const engine = requireTarget(state);
  try {
    await state.compose!.run(
      target.project,
      [target.file],
      // An empty env file: interpolation already happened in `config`, and nothing may override DOCKER_HOST.
      ['--env-file', state.emptyEnvFile!, ...args],
      {
        cwd: state.workDir,
        // The variables' values for the file's references; HOME is the run's own directory: the server's registry
        // credentials and settings stay out of reach.
        env: { ...variableReferences(state.env).environment, ...engine.composeEnv, HOME: state.workDir },
        timeoutMs,
        signal: state.signal,
        onLine: (line) => {
          state.log.write(line);
          onLine?.(line);
        },
      },
    );
  } catch (error) {
    if (error instanceof CommandError) {
      const output = `${error.result.stdout}\n${error.result.stderr}`;
      throw new StepFailure(
        error.result.timedOut
          ? `${what.label} timed out after ${Math.round(timeoutMs / 60_000)} minutes`
          : (classifyComposeFailure(output, what.kind) ??
              `${what.label} failed: ${lastMeaningfulLine(output) ?? error.message}`),
      );
    }
    throw error;
  }
}

/** How often an `up` is tried again when another project took the subnet chosen for one of its networks. */
const SUBNET_RACES = 3;

/**
 * `up` of a project with the workspace's variables (as references in its file, values in Compose's environment),
 * each of its networks given a subnet of Slipway's pool (networkSubnets.ts).
 */
export async function upWithVariables(state: RunState, target: ProjectFile, project: Obj, label: string) {
  const { docker } = requireTarget(state);
  for (let attempt = 1; ; attempt++) {
    const placed = await placeNetworks(
      project,
      target.project,
      docker,
      state.deps.networkPool ?? defaultSubnetPool(),
    );
    await writeProjectFile(state, target.file, placed.project);
    try {
      await runCompose(state, target, ['up', '-d', '--remove-orphans', '--no-build'], UP_TIMEOUT_MS, {
        label,
        kind: 'up',
      });
      return;
    } catch (error) {
      if (attempt >= SUBNET_RACES || !(await lostSubnetRace(docker, placed.chosen))) throw error;
      state.log.write('Another project took the subnet chosen for a network: choosing another');
    }
  }
}

/** Starts this run's version in the workspace's own project, replacing the changed containers in place. */
export async function startServingProject(state: RunState) {
  const target = requireTarget(state);
  state.log.write('Starting containers...');
  state.containersBeforeUp = new Set(
    (await listProjectContainers(target.docker, state.workspace.id)).map((container) => container.Id),
  );
  state.containersStarted = true;
  try {
    await upWithVariables(
      state,
      servingProjectFile(state),
      projectFor(state, currentPlan(state), true),
      'Starting the containers',
    );
  } catch (error) {
    // A one-shot service that failed stops `up`: its exit code and log explain more than Compose's last line.
    throw await reportStartFailure(state, error);
  }
  for (const [service, image] of Object.entries(state.imageNames)) {
    try {
      state.imageIds[service] = (await target.docker.getImage(image).inspect()).Id;
    } catch {
      // A service that failed to build never reaches here; an image we cannot inspect is simply not recorded.
    }
  }
  state.log.write('Containers started');
}

/**
 * After a redeploy failed with its containers started: starts the last good version again from its plan and
 * its kept images (no build), with the workspace's variables. False when there is none to go back to.
 */
export async function restorePreviousVersion(state: RunState): Promise<boolean> {
  if (!state.target || !state.compose || !state.finalComposeFile || !state.emptyEnvFile) return false;
  const plan = await servingPlan(state);
  if (!plan) return false;
  state.log.write(`Starting the previous version again (deployment ${plan.deploymentId.slice(0, 8)})`);
  // The run's own signal may be the reason it failed (a time limit, a cancel): this has one of its own.
  state.signal = AbortSignal.timeout(UP_TIMEOUT_MS);
  await upWithVariables(
    state,
    servingProjectFile(state),
    projectFor(state, plan, true),
    'Starting the previous version',
  );
  return true;
}
