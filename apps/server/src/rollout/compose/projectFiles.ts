import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { replicasOf } from '../../health/serviceRoles.js';
import type { ComposeCli } from '../../infra/compose/composeCli.js';
import type { Obj } from '../../infra/compose/composeMerge.js';
import { finalizeConfig, stringifyCompose } from '../../infra/compose/composeProject.js';
import {
  defaultSubnetPool,
  lostSubnetRace,
  placeNetworks,
  type SubnetPool,
} from '../../infra/compose/networkSubnets.js';
import { CommandError } from '../../infra/compose/runCommand.js';
import { variableReferences } from '../../infra/compose/variableReferences.js';
import type { DockerTarget } from '../../vm-providers/vmProvider.js';
import type { EngineRun, EngineVersion } from '../engine.js';
import type { RevisionPlan } from '../revisionPlans.js';
import { StepFailure } from '../stepFailure.js';
import { classifyComposeFailure } from './composeFailures.js';
import { applyRuntimePlan } from './runtimePlan.js';

export const UP_TIMEOUT_MS = 10 * 60_000;
export const BUILD_TIMEOUT_MS = 30 * 60_000;

/** What one run of the Compose CLI does: build (Compose v2) or start. */
export type ComposeWork = 'build' | 'up';

/** The workspace a Compose engine runs, on the engine of its VM. */
export interface ComposeWorkspace {
  target: DockerTarget;
  workspace: { id: string; userId: string; vmSize: string };
  cli: () => Promise<ComposeCli>;
  /** Where the projects' networks get their subnets; WORKSPACE_NETWORK_POOL's default when absent. */
  networkPool?: SubnetPool | undefined;
}

/** One Compose project on the VM: its name and the file Slipway writes for it. */
export interface ProjectFile {
  project: string;
  file: string;
}

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

/** The project file Slipway runs for a version: its plan on this VM, with the workspace's variables or not. */
export function projectFor(ctx: ComposeWorkspace, plan: RevisionPlan, env?: EngineVersion['env']) {
  const { workspace, target } = ctx;
  const config = finalizeConfig(plan.normalized, {
    workspaceId: workspace.id,
    userId: workspace.userId,
    deploymentId: plan.deploymentId,
    imageNames: plan.imageNames,
    publishAddress: target.publishAddress,
    // Every replica is a container of its own: the VM is divided among all of them.
    limits: limitsFor(
      workspace.vmSize,
      plan.services
        .filter((s) => !s.inactive)
        .reduce((sum, s) => sum + replicasOf(plan.roles.find((role) => role.name === s.name)), 0),
    ),
    ...(env ? { env } : {}),
  });
  return applyRuntimePlan(config, {
    roles: plan.roles,
    hostPorts: plan.hostPorts,
    publishAddress: target.publishAddress,
  });
}

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
async function writeProjectFile(file: string, project: Obj, env: EngineVersion['env']) {
  const text = stringifyCompose(project, variableReferences(env));
  await writeFile(file, text, { mode: 0o600 });
}

/** Runs the Compose CLI on one of the run's project files, output to the build log, failures in plain words. */
export async function runCompose(
  ctx: ComposeWorkspace,
  run: EngineRun,
  env: EngineVersion['env'],
  target: ProjectFile,
  args: string[],
  timeoutMs: number,
  what: { label: string; kind: ComposeWork },
  onLine?: (line: string) => void,
) {
  const cli = await ctx.cli();
  // An empty env file: interpolation already happened when the project was read, and nothing may override
  // DOCKER_HOST.
  const emptyEnvFile = path.join(run.workDir, 'empty.env');
  await writeFile(emptyEnvFile, '', { mode: 0o600 });
  try {
    await cli.run(target.project, [target.file], ['--env-file', emptyEnvFile, ...args], {
      cwd: run.workDir,
      // The variables' values for the file's references; HOME is the run's own directory: the server's registry
      // credentials and settings stay out of reach.
      env: { ...variableReferences(env).environment, ...ctx.target.composeEnv, HOME: run.workDir },
      timeoutMs,
      signal: run.signal,
      onLine: (line) => {
        run.log(line);
        onLine?.(line);
      },
    });
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
export async function upWithVariables(
  ctx: ComposeWorkspace,
  run: EngineRun,
  env: EngineVersion['env'],
  target: ProjectFile,
  project: Obj,
  label: string,
) {
  const { docker } = ctx.target;
  for (let attempt = 1; ; attempt++) {
    const placed = await placeNetworks(
      project,
      target.project,
      docker,
      ctx.networkPool ?? defaultSubnetPool(),
    );
    await writeProjectFile(target.file, placed.project, env);
    try {
      await runCompose(ctx, run, env, target, ['up', '-d', '--remove-orphans', '--no-build'], UP_TIMEOUT_MS, {
        label,
        kind: 'up',
      });
      return;
    } catch (error) {
      if (attempt >= SUBNET_RACES || !(await lostSubnetRace(docker, placed.chosen))) throw error;
      run.log('Another project took the subnet chosen for a network: choosing another');
    }
  }
}

/** Writes the project file of a version without starting it (the CLI's `build` reads it). */
export async function writeVersionFile(ctx: ComposeWorkspace, target: ProjectFile, version: EngineVersion) {
  await writeProjectFile(target.file, projectFor(ctx, version.plan), version.env);
}
