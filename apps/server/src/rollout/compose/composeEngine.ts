import path from 'node:path';
import type Docker from 'dockerode';
import { verifyHealth } from '../../health/healthVerifier.js';
import { replicaCounts } from '../../health/serviceRoles.js';
import { isObj } from '../../infra/compose/composeMerge.js';
import { candidateProjectName, composeProjectName, LABELS } from '../../infra/docker/conventions.js';
import {
  listCandidateContainers,
  listProjectContainers,
  removeCandidateContainers,
  removeProjectResources,
} from '../../infra/docker/projectResources.js';
import type { EngineVersion, ReplicaState, RolloutEngine, Slot } from '../engine.js';
import type { VersionView } from '../serviceChanges.js';
import { buildThroughEngine } from './engineBuilds.js';
import { greenProject } from './greenProject.js';
import { targetsOf } from './ingressTargets.js';
import {
  BUILD_TIMEOUT_MS,
  type ComposeWorkspace,
  type ProjectFile,
  projectFor,
  runCompose,
  upWithVariables,
  writeVersionFile,
} from './projectFiles.js';

/** The host ports each container of the engine is configured to bind, running or not, with its project. */
async function boundPorts(docker: Docker): Promise<Map<number, string>> {
  const bound = new Map<number, string>();
  for (const container of await docker.listContainers({ all: true })) {
    const project = container.Labels?.[LABELS.composeProject] ?? container.Id;
    for (const port of container.Ports ?? []) if (port.PublicPort) bound.set(port.PublicPort, project);
    if (container.State === 'running') continue;
    // A stopped or restarting container lists no ports, yet keeps its bindings for when it starts again.
    const info = await docker
      .getContainer(container.Id)
      .inspect()
      .catch(() => undefined);
    for (const bindings of Object.values(info?.HostConfig?.PortBindings ?? {})) {
      // dockerode leaves the bindings untyped: `[{ HostIp, HostPort }]` per container port.
      for (const binding of Array.isArray(bindings) ? bindings : []) {
        const port = Number(binding.HostPort);
        if (port > 0) bound.set(port, project);
      }
    }
  }
  return bound;
}

/** A container as a replica of its service (`serviceLabel` names the service). */
const replicaOf = (container: Docker.ContainerInfo, serviceLabel: string): ReplicaState => ({
  id: container.Id,
  service: container.Labels?.[serviceLabel] ?? '',
  number: Number(container.Labels?.[LABELS.composeNumber] ?? 1) || 1,
  running: container.State === 'running',
  createdAt: new Date(container.Created * 1000),
  ports: (container.Ports ?? []).flatMap((port) =>
    port.Type === 'tcp' && port.PublicPort
      ? [{ containerPort: port.PrivatePort, hostPort: port.PublicPort }]
      : [],
  ),
});

/**
 * The Compose engine: a workspace's version is a Compose project on its VM's Docker Engine — the serving copy the
 * project `slipway-{workspace}`, blue/green's green copy `slipway-{workspace}-candidate` (greenProject.ts) —
 * written by Slipway (projectFiles.ts) and run by the installed Compose CLI; images built through the engine's API
 * on Compose v1 (engineBuilds.ts), by the CLI on v2.
 */
export function createComposeEngine(ctx: ComposeWorkspace): RolloutEngine {
  const { target, workspace } = ctx;
  const { docker } = target;
  const projects: Record<Slot, string> = {
    serving: composeProjectName(workspace.id),
    green: candidateProjectName(workspace.id),
  };
  const serviceLabels: Record<Slot, string> = {
    serving: LABELS.composeService,
    green: LABELS.candidateService,
  };
  const fileOf = (slot: Slot, workDir: string): ProjectFile => ({
    project: projects[slot],
    file: path.join(workDir, slot === 'serving' ? 'slipway.compose.yml' : 'slipway.green.yml'),
  });
  /** The green copy's project file for a version, with the workspace's variables or not. */
  const greenFile = (
    version: EngineVersion,
    services: string[],
    hostPorts: Record<string, Record<string, number>>,
    withEnv: boolean,
  ) =>
    greenProject(projectFor(ctx, version.plan, withEnv ? version.env : undefined), {
      services,
      mainProject: projects.serving,
      workspaceId: workspace.id,
      hostPorts,
      publishAddress: target.publishAddress,
    });

  return {
    async ready() {
      await docker.ping();
      return `Compose ${(await ctx.cli()).flavour}`;
    },

    async build(version, run, onLine) {
      if ((await ctx.cli()).flavour === 'v1') {
        await buildThroughEngine(docker, projectFor(ctx, version.plan), version.plan.imageNames, run, onLine);
        return;
      }
      // Compose v2 builds in parallel itself (BuildKit).
      const file = fileOf('serving', run.workDir);
      await writeVersionFile(ctx, file, version);
      await runCompose(
        ctx,
        run,
        version.env,
        file,
        ['--progress', 'plain', 'build'],
        BUILD_TIMEOUT_MS,
        { label: 'The build', kind: 'build' },
        onLine,
      );
    },

    async up(version, placement, run, label) {
      const project =
        placement.slot === 'serving'
          ? projectFor(ctx, version.plan, version.env)
          : greenFile(version, placement.services, placement.hostPorts, true);
      await upWithVariables(ctx, run, version.env, fileOf(placement.slot, run.workDir), project, label);
    },

    /** The green copy joins the workspace's networks as existing ones: a network new in this version cannot be. */
    async besideRefusal(version, services) {
      const { networks } = greenFile(version, services, {}, false);
      for (const network of Object.values(isObj(networks) ? networks : {})) {
        const name = isObj(network) && typeof network.name === 'string' ? network.name : undefined;
        if (!name) continue;
        const exists = await docker
          .getNetwork(name)
          .inspect()
          .then(() => true)
          .catch(() => false);
        if (!exists) return `its network ${name} is new`;
      }
      return undefined;
    },

    async replicas(slot) {
      const containers =
        slot === 'serving'
          ? await listProjectContainers(docker, workspace.id)
          : await listCandidateContainers(docker, workspace.id);
      return containers
        .filter((container) => container.Labels?.[serviceLabels[slot]])
        .map((container) => replicaOf(container, serviceLabels[slot]));
    },

    verify(slot, request) {
      return verifyHealth({
        docker,
        project: projects[slot],
        serviceLabel: serviceLabels[slot],
        roles: request.roles,
        hostPorts: request.hostPorts,
        urls: {},
        connect: (port) => target.connect(port),
        timeoutMs: request.timeoutMs,
        failuresOnly: request.failuresOnly ?? false,
        ...(request.preExisting ? { preExisting: request.preExisting } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
      });
    },

    async remove(slot) {
      if (slot === 'green') await removeCandidateContainers(docker, workspace.id);
      else await removeProjectResources(docker, workspace.id, { volumes: true, images: true });
    },

    async portsInUse() {
      const bySlot = new Map<number, Slot | 'other'>();
      for (const [port, project] of await boundPorts(docker)) {
        bySlot.set(
          port,
          project === projects.serving ? 'serving' : project === projects.green ? 'green' : 'other',
        );
      }
      return bySlot;
    },

    connect: (port) => target.connect(port),
    upstream: (port) => target.upstream(port),
    // A service of N replicas holds N consecutive host ports from its own (hostPorts.ts, runtimePlan.ts).
    targets: async (_slot, hostPorts, roles) =>
      targetsOf(hostPorts, replicaCounts(roles), (port) => target.upstream(port)),

    view(plan): VersionView {
      const { services } = projectFor(ctx, plan);
      return {
        services: isObj(services)
          ? Object.fromEntries(
              Object.entries(services).flatMap(([name, service]) =>
                isObj(service) ? [[name, service]] : [],
              ),
            )
          : {},
        envDigest: plan.envDigest,
      };
    },
  };
}
