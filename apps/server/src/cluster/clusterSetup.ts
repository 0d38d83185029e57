import { ensureRegistry, REGISTRY_PORT } from '../infra/swarm/clusterRegistry.js';
import type { RegistryCredentials } from '../infra/swarm/registryCredentials.js';
import { type ClusterRegistry, pullImage } from '../infra/swarm/registryImages.js';
import type { NodeEngine } from '../infra/swarm/swarmCall.js';
import { ensureSwarm, type SwarmNode, swarmMembership } from '../infra/swarm/swarmMembership.js';

/** A workspace's cluster, ready for plans: its manager, its nodes with their Swarm ids, its registry. */
export interface PreparedCluster {
  manager: NodeEngine;
  nodes: { engine: NodeEngine; id: string }[];
  swarmNodes: SwarmNode[];
  registry: ClusterRegistry;
}

export interface PrepareOptions {
  credentials: RegistryCredentials;
  /**
   * Makes every node's engine (and the engine that builds and pushes) trust the cluster's CA for the registry's
   * address: /etc/docker/certs.d/{host}/ca.crt on each VM, written by the VM provider.
   */
  trustRegistry: (host: string, caCert: string) => Promise<void>;
  /** Where overlay subnets come from: not the VMs' network, not the single-VM workspaces' pool. */
  addressPool: string;
  /** How often nodes report to the managers (see SwarmInitOptions.heartbeatSeconds); default 2. */
  heartbeatSeconds?: number;
}

/**
 * Nodes report every 2 s instead of Swarm's 5: a lost node is marked down (and its replicas started elsewhere)
 * after about 6 s instead of 15, for a few bytes a second per node.
 */
const HEARTBEAT_SECONDS = 2;

/**
 * Makes the workspace's VMs a swarm (the first a manager, three managers from three nodes on) and runs its
 * registry on the first node. Safe to run again: what exists is kept.
 */
export async function prepareCluster(
  engines: NodeEngine[],
  options: PrepareOptions,
): Promise<PreparedCluster> {
  const [manager] = engines;
  if (!manager) throw new Error('A cluster needs at least one node');
  const swarmNodes = await ensureSwarm(engines, {
    defaultAddrPool: options.addressPool,
    heartbeatSeconds: options.heartbeatSeconds ?? HEARTBEAT_SECONDS,
  });
  const nodes = await Promise.all(
    engines.map(async (engine) => {
      const { nodeId } = await swarmMembership(engine);
      if (!nodeId) throw new Error(`${engine.name} is in no swarm`);
      return { engine, id: nodeId };
    }),
  );
  await options.trustRegistry(`${manager.address}:${REGISTRY_PORT}`, options.credentials.caCert);
  const registry = await ensureRegistry(manager, {
    node: manager,
    nodeId: nodes[0]!.id,
    credentials: options.credentials,
  });
  return { manager, nodes, swarmNodes, registry };
}

/**
 * Pulls each image onto every node that answers: a replica rescheduled after a node loss then starts from the
 * node's own copy, even when the lost node was the registry's.
 */
export async function distributeImages(cluster: PreparedCluster, references: string[]): Promise<void> {
  await Promise.all(
    cluster.nodes.flatMap(({ engine }) =>
      references.map((reference) => pullImage(engine, reference, cluster.registry)),
    ),
  );
}
