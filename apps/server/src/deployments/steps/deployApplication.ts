import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { placeBindMounts } from '../../infra/compose/bindMounts.js';
import { dnsLabel, finalizeConfig, stringifyCompose } from '../../infra/compose/composeProject.js';
import { CommandError } from '../../infra/compose/runCommand.js';
import { labelLeftoverStages } from '../../infra/docker/buildStages.js';
import { composeProjectName, LABELS } from '../../infra/docker/conventions.js';
import { containerPortsToPublish } from '../portDiscovery.js';
import { type RunState, requireTarget, StepFailure } from '../runState.js';

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

function finalConfig(state: RunState, withPortsAndEnv: { ports: Record<string, number[]> } | undefined) {
  const target = requireTarget(state);
  return finalizeConfig(state.normalized!, {
    workspaceId: state.workspace.id,
    userId: state.workspace.userId,
    deploymentId: state.deployment.id,
    imageNames: state.imageNames,
    publishAddress: target.publishAddress,
    limits: limitsFor(state.workspace.vmSize, state.services.filter((s) => !s.inactive).length),
    ...(withPortsAndEnv ? { ports: withPortsAndEnv.ports, env: state.env } : {}),
  });
}

async function runCompose(
  state: RunState,
  args: string[],
  timeoutMs: number,
  what: string,
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
      throw new StepFailure(
        error.result.timedOut
          ? `${what} timed out after ${Math.round(timeoutMs / 60_000)} minutes`
          : `${what} failed: ${lastMeaningfulLine(error.result.stderr + error.result.stdout) ?? error.message}`,
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
 * Builds the images (output streamed to the build log) and starts the containers with the workspace's
 * variables. The file holding the variables exists only until `up` returns.
 */
export async function deployApplication(state: RunState) {
  const target = requireTarget(state);
  const { workDir } = state;
  state.emptyEnvFile = path.join(workDir, 'empty.env');
  await writeFile(state.emptyEnvFile, '', { mode: 0o600 });
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
    dataDir: path.dirname(state.deps.workRoot),
    workspaceId: state.workspace.id,
    deploymentId: state.deployment.id,
  });
  state.finalComposeFile = path.join(workDir, 'slipway.compose.yml');
  await writeFile(state.finalComposeFile, stringifyCompose(finalConfig(state, undefined)), { mode: 0o600 });

  if (state.services.some((s) => s.hasBuild)) {
    state.log.write('Building images...');
    // v2 builds services in parallel and takes `--progress` as a global option; v1 needs `--parallel`.
    const args = state.compose!.flavour === 'v2' ? ['--progress', 'plain', 'build'] : ['build', '--parallel'];
    const output: string[] = [];
    await runCompose(state, args, BUILD_TIMEOUT_MS, 'The build', (line) => output.push(line));
    await labelLeftoverStages(target.docker, output, {
      [LABELS.workspaceId]: state.workspace.id,
      [LABELS.userId]: state.workspace.userId,
      [LABELS.deploymentId]: state.deployment.id,
    });
  }

  const ports = await containerPortsToPublish(target.docker, state.services, (service) =>
    service.hasBuild ? state.imageNames[service.name] : service.image,
  );
  state.plannedPorts = ports;
  await writeFile(state.finalComposeFile, stringifyCompose(finalConfig(state, { ports })), { mode: 0o600 });
  state.log.write('Starting containers...');
  state.containersStarted = true;
  try {
    await runCompose(
      state,
      ['up', '-d', '--remove-orphans', '--no-build'],
      UP_TIMEOUT_MS,
      'Starting the containers',
    );
  } finally {
    // The variables' only copy on disk goes as soon as Compose has read it; the skeleton stays for `down`.
    await writeFile(state.finalComposeFile, stringifyCompose(finalConfig(state, undefined)), { mode: 0o600 });
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
