import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { placeBindMounts } from '../../infra/compose/bindMounts.js';
import { dnsLabel } from '../../infra/compose/composeProject.js';
import { nameLeftoverStages } from '../../infra/docker/buildStages.js';
import { builtImageName } from '../../infra/docker/conventions.js';
import { guardDisk } from '../diskGuard.js';
import { buildThroughEngine } from '../engineBuilds.js';
import { allocateHostPorts, type HostPorts, hostPortsOfContainers } from '../hostPorts.js';
import { containerPortsToPublish } from '../portDiscovery.js';
import type { RevisionPlan } from '../revisionPlans.js';
import { type RunState, requireTarget, StepFailure } from '../runState.js';
import { serviceChanges } from '../serviceChanges.js';
import { replicaCounts, serviceRoles, withReplicas } from '../serviceRoles.js';
import {
  BUILD_TIMEOUT_MS,
  currentPlan,
  dataDirOf,
  projectFor,
  runCompose,
  servingPlan,
  servingProjectFile,
  startServingProject,
  versionView,
  writeProjectFile,
} from '../servingProject.js';
import { replacementFor, startCandidate } from '../sideBySide.js';

const finalConfig = (state: RunState, withEnv: boolean) => projectFor(state, currentPlan(state), withEnv);

/**
 * The host ports the workspace had: what its last deployment kept, then its current containers for what that
 * does not say (a workspace deployed before ports were kept). Kept first: a replicated service's first port is
 * the start of its range, which its running containers alone cannot tell when a replica is down.
 */
async function previousHostPorts(state: RunState): Promise<HostPorts> {
  const [last] = await state.deps.repository.completedForWorkspace(state.workspace.id);
  const stored = (last?.metadata as { host_ports?: HostPorts } | undefined)?.host_ports ?? {};
  const current = await hostPortsOfContainers(requireTarget(state).docker, state.workspace.id);
  const merged: HostPorts = { ...current };
  for (const [service, ports] of Object.entries(stored)) merged[service] = { ...merged[service], ...ports };
  return merged;
}

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
      state.imageNames[service.name] = builtImageName(
        state.workspace.id,
        dnsLabel(service.name),
        state.deployment.id,
      );
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
  state.roles = serviceRoles(state.normalized!, state.services, {
    dockerfileOnly,
    ...(state.replicas ? { replicas: state.replicas } : {}),
  });
  await writeProjectFile(state, state.finalComposeFile!, finalConfig(state, false));
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
  state.roles = withReplicas(plan.roles, state.replicas);
  state.log.write(
    `Starting the kept images of deployment ${plan.deploymentId.slice(0, 8)}: nothing to build`,
  );
  await writeProjectFile(state, state.finalComposeFile!, finalConfig(state, false));
}

/** Said before `up`: the serving version's services this one leaves running, and stateful ones it recreates. */
async function changesToServing(state: RunState): Promise<string[]> {
  const plan = await servingPlan(state);
  return serviceChanges(plan ? versionView(state, plan) : undefined, versionView(state, currentPlan(state)));
}

/**
 * Builds the images (output streamed to the build log) and starts the containers with the workspace's
 * variables. The file holding the variables exists only until `up` returns.
 */
export async function deployApplication(state: RunState) {
  const { workDir } = state;
  state.emptyEnvFile = path.join(workDir, 'empty.env');
  await writeFile(state.emptyEnvFile, '', { mode: 0o600 });
  state.finalComposeFile = path.join(workDir, 'slipway.compose.yml');
  const dockerfileOnly = state.dockerfileOnly === true;
  if (state.rollbackTo) {
    await takeKeptVersion(state, state.rollbackTo);
  } else {
    await prepareBuild(state, dockerfileOnly);
    await guardDisk(state);
  }
  if (!state.rollbackTo && state.services.some((s) => s.hasBuild)) {
    await buildImages(state);
    await keepImagesThatDidNotChange(state);
  }
  await startContainers(state, dockerfileOnly);
}

/**
 * A service whose new build is the very image the serving version runs keeps that image's name, so Compose
 * sees the same service and leaves its container running, as it does for a published image that did not
 * change (a changed variable or setting still recreates it). The new name is taken off the image again.
 */
async function keepImagesThatDidNotChange(state: RunState) {
  const serving = await servingPlan(state);
  if (!serving) return;
  const { docker } = requireTarget(state);
  const idOf = (name: string) =>
    docker
      .getImage(name)
      .inspect()
      .then((image) => image.Id)
      .catch(() => undefined);
  for (const [service, name] of Object.entries(state.imageNames)) {
    const running = serving.imageNames[service];
    if (!running || running === name) continue;
    const [built, before] = await Promise.all([idOf(name), idOf(running)]);
    if (built === undefined || built !== before) continue;
    state.imageNames[service] = running;
    await docker
      .getImage(name)
      .remove({ noprune: true })
      .catch(() => undefined);
  }
}

/**
 * Runs a build with its output collected, then names the build stages it left (buildStages.ts), so the
 * workspace's clean-up finds them; a failed build's too (the stages it finished). The container of a step
 * that failed or was stopped goes with the build (`forcerm`; imageBuild.docker.test.ts).
 */
async function building(state: RunState, run: (onLine: (line: string) => void) => Promise<void>) {
  const { docker } = requireTarget(state);
  const output: string[] = [];
  const nameStages = () =>
    nameLeftoverStages(docker, output, {
      workspaceId: state.workspace.id,
      deploymentId: state.deployment.id,
    });
  try {
    await run((line) => output.push(line));
  } catch (error) {
    await nameStages().catch(() => undefined);
    throw error;
  }
  await nameStages();
}

/**
 * Builds the images the project builds, streaming the output to the build log: on Compose v1 side by side
 * through the engine (engineBuilds.ts), on v2 by the CLI, which builds in parallel itself (BuildKit).
 */
async function buildImages(state: RunState) {
  state.log.write('Building images...');
  if (state.compose!.flavour === 'v1') {
    await building(state, (onLine) => buildThroughEngine(state, finalConfig(state, false), onLine));
    return;
  }
  await building(state, (onLine) =>
    runCompose(
      state,
      servingProjectFile(state),
      ['--progress', 'plain', 'build'],
      BUILD_TIMEOUT_MS,
      { label: 'The build', kind: 'build' },
      onLine,
    ),
  );
}

/** Host ports, then the containers: beside the serving version, or in its place. */
async function startContainers(state: RunState, dockerfileOnly: boolean) {
  const target = requireTarget(state);
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
    replicas: replicaCounts(state.roles),
    previous: await previousHostPorts(state),
    connect: (port) => target.connect(port),
  });
  await state.deps.repository.update(state.deployment.id, {
    metadata: { ...state.deployment.metadata, host_ports: state.hostPorts },
  });
  for (const line of await changesToServing(state)) state.log.write(line);
  await writeProjectFile(state, state.finalComposeFile!, finalConfig(state, false));
  const replacement = await replacementFor(state);
  if ('sideBySide' in replacement) {
    // The serving version is left alone until the new one answers: verify-deployment switches them.
    await startCandidate(state, replacement.sideBySide);
    return;
  }
  if (!state.firstDeploy) state.log.write(`Replacing the containers in place: ${replacement.inPlace}`);
  await startServingProject(state);
}
