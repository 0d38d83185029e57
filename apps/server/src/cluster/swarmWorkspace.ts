import { LABELS } from '../infra/docker/conventions.js';
import { engineCall, type NodeEngine, SwarmCallError, waitFor } from '../infra/swarm/swarmCall.js';
import { removeSwarmFiles } from '../infra/swarm/swarmFiles.js';
import { listSwarmNodes } from '../infra/swarm/swarmMembership.js';
import { listOverlayNetworks, removeNetwork } from '../infra/swarm/swarmNetworks.js';
import {
  inspectService,
  listServiceNames,
  removeService,
  serviceTasks,
} from '../infra/swarm/swarmServices.js';
import { SERVICE_LABEL } from './composeToSwarm.js';

/** One running replica as the proxy reaches it: its node's private address and the port the engine published. */
export interface ReplicaUpstream {
  service: string;
  nodeId: string;
  address: string;
  /** The container port it answers on, and the node's port that leads to it. */
  target: number;
  port: number;
  taskId: string;
}

/** The host ports a container's engine bound for it: container port → port on the node. */
async function containerPorts(engine: NodeEngine, containerId: string) {
  const info = await engineCall(`inspect container ${containerId} on ${engine.name}`, (abortSignal) =>
    engine.docker.getContainer(containerId).inspect({ abortSignal }),
  );
  const ports = new Map<string, { target: number; published: number }>();
  for (const [key, bindings] of Object.entries(info.NetworkSettings?.Ports ?? {})) {
    const [target, protocol] = key.split('/');
    if (protocol !== 'tcp') continue;
    for (const binding of bindings ?? []) {
      const published = Number(binding.HostPort);
      if (published > 0) ports.set(`${target}:${published}`, { target: Number(target), published });
    }
  }
  return [...ports.values()];
}

/**
 * Every running replica of a workspace's services with where Caddy reaches it (host-mode ports, one per replica).
 * A replica on a node the managers see down is left out: its requests would go nowhere. The port comes from the
 * task's status, or — where Swarm left that empty, as it can for tasks started by a rollback — from the
 * container on its node.
 */
export async function workspaceUpstreams(
  manager: NodeEngine,
  engines: { engine: NodeEngine; id: string }[],
  workspaceId: string,
): Promise<ReplicaUpstream[]> {
  const nodes = new Map((await listSwarmNodes(manager)).map((node) => [node.id, node]));
  const engineOf = new Map(engines.map((item) => [item.id, item.engine]));
  const upstreams: ReplicaUpstream[] = [];
  for (const name of await listServiceNames(manager, { [LABELS.workspaceId]: workspaceId })) {
    const service = await inspectService(manager, name);
    if (!service?.spec.EndpointSpec.Ports?.length) continue;
    const composeName = service.spec.Labels[SERVICE_LABEL] ?? name;
    for (const task of await serviceTasks(manager, name)) {
      const node = nodes.get(task.nodeId);
      if (task.state !== 'running' || task.desiredState !== 'running' || node?.state !== 'ready') continue;
      const engine = engineOf.get(task.nodeId);
      const ports =
        task.ports.length > 0 || !engine || !task.containerId
          ? task.ports
          : await containerPorts(engine, task.containerId);
      for (const port of ports) {
        upstreams.push({
          service: composeName,
          nodeId: task.nodeId,
          address: node.address,
          target: port.target,
          port: port.published,
          taskId: task.id,
        });
      }
    }
  }
  return upstreams;
}

/**
 * Removes a workspace from the cluster: its services (waiting until their containers are gone), its overlay
 * networks, its secrets and configs, and — unless kept — its volumes on every node that answers.
 */
export async function removeWorkspaceFromCluster(
  manager: NodeEngine,
  nodes: NodeEngine[],
  workspaceId: string,
  options: { keepVolumes: boolean },
): Promise<void> {
  const labels = { [LABELS.workspaceId]: workspaceId };
  const services = await listServiceNames(manager, labels);
  for (const name of services) await removeService(manager, name);
  let left: string[] = [];
  await waitFor(
    'the workspace containers to stop',
    async () => {
      const lists = await Promise.all(
        nodes.map(async (node) => {
          const containers = await engineCall(`list containers on ${node.name}`, (abortSignal) =>
            node.docker.listContainers({
              all: true,
              filters: { label: [`${LABELS.workspaceId}=${workspaceId}`] },
              abortSignal,
            }),
          ).catch((error: unknown) => {
            // A node that does not answer holds nothing we can wait for; Swarm removes its tasks when it returns.
            if (error instanceof SwarmCallError) return [];
            throw error;
          });
          // A stopped task container Swarm no longer tracks (left by a node that was lost, or by one that left)
          // is removed here; running ones are Swarm's to stop.
          for (const container of containers.filter((item) => item.State !== 'running')) {
            await engineCall(`remove container ${container.Id} on ${node.name}`, (abortSignal) =>
              node.docker.getContainer(container.Id).remove({ force: true, v: true, abortSignal }),
            ).catch((error: unknown) => {
              // Gone already (Swarm's own clean-up won the race) or being removed: either way on its way out.
              if (
                !(error instanceof SwarmCallError && (error.statusCode === 404 || error.statusCode === 409))
              ) {
                throw error;
              }
            });
          }
          return containers.map(
            (container) => `${node.name}: ${container.Names[0] ?? container.Id} (${container.State})`,
          );
        }),
      );
      left = lists.flat();
      return left.length === 0 ? true : undefined;
    },
    60_000,
  ).catch((error: unknown) => {
    throw error instanceof SwarmCallError
      ? new SwarmCallError(error.what, `${error.message}; left: ${left.join(', ')}`)
      : error;
  });
  for (const network of await listOverlayNetworks(manager, labels)) await removeNetwork(manager, network.id);
  await removeSwarmFiles(manager, labels);
  if (options.keepVolumes) return;
  const prefix = `slipway-${workspaceId}_`;
  for (const node of nodes) {
    const volumes = await engineCall(`list volumes on ${node.name}`, (abortSignal) =>
      node.docker.listVolumes({ abortSignal }),
    ).catch((error: unknown) => {
      if (error instanceof SwarmCallError) return { Volumes: [] };
      throw error;
    });
    for (const volume of volumes.Volumes ?? []) {
      if (!volume.Name.startsWith(prefix)) continue;
      await engineCall(`remove volume ${volume.Name} on ${node.name}`, (abortSignal) =>
        node.docker.getVolume(volume.Name).remove({ abortSignal }),
      );
    }
  }
}
