import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { placeBindMounts } from '../../infra/compose/bindMounts.js';
import { dnsLabel, finalizeConfig, stringifyCompose } from '../../infra/compose/composeProject.js';
import { CommandError } from '../../infra/compose/runCommand.js';
import { labelLeftoverStages } from '../../infra/docker/buildStages.js';
import { composeProjectName, LABELS } from '../../infra/docker/conventions.js';
import { guardDisk } from '../diskGuard.js';
import { classifyComposeFailure } from '../failureReport.js';
import { allocateHostPorts, type HostPorts, hostPortsOfContainers } from '../hostPorts.js';
import { containerPortsToPublish } from '../portDiscovery.js';
import { envDigest, loadRevisionPlan, type RevisionPlan } from '../revisionPlans.js';
import { reportStartFailure } from '../runHealth.js';
import { type RunState, requireTarget, StepFailure } from '../runState.js';
import { applyRuntimePlan } from '../runtimePlan.js';
import { serviceChanges, type VersionView } from '../serviceChanges.js';
import { serviceRoles } from '../serviceRoles.js';

const BUILD_TIMEOUT_MS = 30 * 60_000;
const UP_TIMEOUT_MS = 10 * 60_000;

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
const dataDirOf = (state: RunState) => path.dirname(state.deps.workRoot);

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

/** The project file Slipway runs for a version: its plan on this VM, with the workspace's variables or not. */
function projectFor(state: RunState, plan: RevisionPlan, withEnv: boolean) {
  const target = requireTarget(state);
  const config = finalizeConfig(plan.normalized, {
    workspaceId: state.workspace.id,
    userId: state.workspace.userId,
    deploymentId: plan.deploymentId,
    imageNames: plan.imageNames,
    publishAddress: target.publishAddress,
    limits: limitsFor(state.workspace.vmSize, plan.services.filter((s) => !s.inactive).length),
    ...(withEnv ? { env: state.env } : {}),
  });
  return applyRuntimePlan(config, {
    roles: plan.roles,
    hostPorts: plan.hostPorts,
    publishAddress: target.publishAddress,
  });
}

const finalConfig = (state: RunState, withEnv: boolean) => projectFor(state, currentPlan(state), withEnv);

/** A generated project file (not one from the repository) means a Dockerfile-only repository. */
const isDockerfileOnly = (state: RunState) =>
  state.sourceComposeFile !== undefined && path.dirname(state.sourceComposeFile) === state.workDir;

/** The host ports the workspace had: its current containers first, then what its last deployment kept. */
async function previousHostPorts(state: RunState): Promise<HostPorts> {
  const [last] = await state.deps.repository.completedForWorkspace(state.workspace.id);
  const stored = (last?.metadata as { host_ports?: HostPorts } | undefined)?.host_ports ?? {};
  const current = await hostPortsOfContainers(requireTarget(state).docker, state.workspace.id);
  const merged: HostPorts = { ...stored };
  for (const [service, ports] of Object.entries(current)) merged[service] = { ...merged[service], ...ports };
  return merged;
}

async function runCompose(
  state: RunState,
  args: string[],
  timeoutMs: number,
  what: { label: string; kind: 'build' | 'up' },
  onLine?: (line: string) => void,
) {
  const target = requireTarget(state);
  try {
    await state.compose!.run(
      composeProjectName(state.workspace.id),
      [state.finalComposeFile!],
      // An empty env file: interpolation already happened in `config`, and nothing may override DOCKER_HOST.
      ['--env-file', state.emptyEnvFile!, ...args],
      {
        cwd: state.workDir,
        // HOME is the run's own directory: the server's registry credentials and settings stay out of reach.
        env: { ...target.composeEnv, HOME: state.workDir },
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

const lastMeaningfulLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .pop();

/**
 * Container ports to publish: each service's `ports:`; a Dockerfile-only repository's single service is public
 * by definition and publishes what its image EXPOSEs. `expose:`-only services stay on the workspace network.
 */
async function plannedPorts(state: RunState, dockerfileOnly: boolean): Promise<Record<string, number[]>> {
  if (dockerfileOnly) {
    return containerPortsToPublish(requireTarget(state).docker, state.services, (service) =>
      service.hasBuild ? state.imageNames[service.name] : service.image,
    );
  }
  const ports: Record<string, number[]> = {};
  for (const role of state.roles) if (role.publishedPorts.length > 0) ports[role.name] = role.publishedPorts;
  return ports;
}

/** Our image names, bind mounts moved into the workspace's storage, the service roles, the skeleton file. */
async function prepareBuild(state: RunState, dockerfileOnly: boolean) {
  for (const service of state.services) {
    if (service.hasBuild) {
      state.imageNames[service.name] =
        `slipway-${state.workspace.id}-${dnsLabel(service.name)}:${state.deployment.id}`;
    }
  }
  // Bind mounts move out of the checkout (which goes with the run) into the workspace's storage in DATA_DIR,
  // the parent of the runs' work root.
  state.normalized = await placeBindMounts(state.normalized!, {
    repoDir: state.repoDir!,
    dataDir: dataDirOf(state),
    workspaceId: state.workspace.id,
    deploymentId: state.deployment.id,
  });
  state.roles = serviceRoles(state.normalized!, state.services, { dockerfileOnly });
  await writeFile(state.finalComposeFile!, stringifyCompose(finalConfig(state, false)), { mode: 0o600 });
}

/** A rollback runs a kept version as it was: its project, roles and images, which must still be there. */
async function takeKeptVersion(state: RunState, plan: RevisionPlan) {
  const { docker } = requireTarget(state);
  for (const image of Object.values(plan.imageNames)) {
    const kept = await docker
      .getImage(image)
      .inspect()
      .then(() => true)
      .catch(() => false);
    if (!kept) {
      throw new StepFailure(
        `The images of that version were removed (${image}); it can no longer be rolled back to. Deploy its commit again instead.`,
      );
    }
  }
  state.imageNames = { ...plan.imageNames };
  state.roles = plan.roles;
  state.log.write(
    `Starting the kept images of deployment ${plan.deploymentId.slice(0, 8)}: nothing to build`,
  );
  await writeFile(state.finalComposeFile!, stringifyCompose(finalConfig(state, false)), { mode: 0o600 });
}

const viewOf = (state: RunState, plan: RevisionPlan): VersionView => ({
  services: (projectFor(state, plan, false).services ?? {}) as VersionView['services'],
  envDigest: plan.envDigest,
});

/** Said before `up`: the serving version's services this one leaves running, and stateful ones it recreates. */
async function changesToServing(state: RunState): Promise<string[]> {
  const serving = (await state.deps.repository.completedForWorkspace(state.workspace.id)).find(
    (row) => row.id !== state.deployment.id,
  );
  const plan = serving && (await loadRevisionPlan(dataDirOf(state), state.workspace.id, serving.id));
  return serviceChanges(plan ? viewOf(state, plan) : undefined, viewOf(state, currentPlan(state)));
}

/**
 * Builds the images (output streamed to the build log) and starts the containers with the workspace's
 * variables. The file holding the variables exists only until `up` returns.
 */
export async function deployApplication(state: RunState) {
  const target = requireTarget(state);
  const { workDir } = state;
  state.emptyEnvFile = path.join(workDir, 'empty.env');
  await writeFile(state.emptyEnvFile, '', { mode: 0o600 });
  state.finalComposeFile = path.join(workDir, 'slipway.compose.yml');
  const dockerfileOnly = isDockerfileOnly(state);
  if (state.rollbackTo) {
    await takeKeptVersion(state, state.rollbackTo);
  } else {
    await prepareBuild(state, dockerfileOnly);
    await guardDisk(state);
  }
  if (!state.rollbackTo && state.services.some((s) => s.hasBuild)) {
    state.log.write('Building images...');
    // v2 builds services in parallel and takes `--progress` as a global option; v1 needs `--parallel`, and
    // `--force-rm`: its classic builder otherwise leaves the container of a failed step behind on the VM.
    const args =
      state.compose!.flavour === 'v2'
        ? ['--progress', 'plain', 'build']
        : ['build', '--parallel', '--force-rm'];
    const output: string[] = [];
    await runCompose(state, args, BUILD_TIMEOUT_MS, { label: 'The build', kind: 'build' }, (line) =>
      output.push(line),
    );
    await labelLeftoverStages(target.docker, output, {
      [LABELS.workspaceId]: state.workspace.id,
      [LABELS.userId]: state.workspace.userId,
      [LABELS.deploymentId]: state.deployment.id,
    });
  }

  state.plannedPorts = await plannedPorts(state, dockerfileOnly);
  // A Dockerfile-only service publishes what its image EXPOSEs, known only now that it is built.
  state.roles = state.roles.map((role) => ({
    ...role,
    publishedPorts: state.plannedPorts[role.name] ?? role.publishedPorts,
  }));
  state.hostPorts = await allocateHostPorts({
    docker: target.docker,
    workspaceId: state.workspace.id,
    planned: state.plannedPorts,
    previous: await previousHostPorts(state),
    connect: (port) => target.connect(port),
  });
  await state.deps.repository.update(state.deployment.id, {
    metadata: { ...state.deployment.metadata, host_ports: state.hostPorts },
  });
  for (const line of await changesToServing(state)) state.log.write(line);
  await writeFile(state.finalComposeFile, stringifyCompose(finalConfig(state, true)), { mode: 0o600 });
  state.log.write('Starting containers...');
  state.containersStarted = true;
  try {
    await runCompose(state, ['up', '-d', '--remove-orphans', '--no-build'], UP_TIMEOUT_MS, {
      label: 'Starting the containers',
      kind: 'up',
    });
  } catch (error) {
    // A one-shot service that failed stops `up`: its exit code and log explain more than Compose's last line.
    throw await reportStartFailure(state, error);
  } finally {
    // The variables' only copy on disk goes as soon as Compose has read it; the skeleton stays for `down`.
    await writeFile(state.finalComposeFile, stringifyCompose(finalConfig(state, false)), { mode: 0o600 });
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
  const last = (await state.deps.repository.completedForWorkspace(state.workspace.id)).find(
    (row) => row.id !== state.deployment.id,
  );
  const plan = last && (await loadRevisionPlan(dataDirOf(state), state.workspace.id, last.id));
  if (!plan) return false;
  state.log.write(`Starting the previous version again (deployment ${plan.deploymentId.slice(0, 8)})`);
  // The run's own signal may be the reason it failed (a time limit, a cancel): this has one of its own.
  state.signal = AbortSignal.timeout(UP_TIMEOUT_MS);
  await writeFile(state.finalComposeFile, stringifyCompose(projectFor(state, plan, true)), { mode: 0o600 });
  try {
    await runCompose(state, ['up', '-d', '--remove-orphans', '--no-build'], UP_TIMEOUT_MS, {
      label: 'Starting the previous version',
      kind: 'up',
    });
  } finally {
    await writeFile(state.finalComposeFile, stringifyCompose(projectFor(state, plan, false)), {
      mode: 0o600,
    });
  }
  return true;
}
