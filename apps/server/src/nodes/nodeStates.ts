import type { WorkspaceNode } from '@slipway/contract';
import { engineCall, type NodeEngine } from '../infra/swarm/swarmCall.js';
import { listSwarmNodes, type SwarmNode } from '../infra/swarm/swarmMembership.js';
import type { VmRow } from '../vm-providers/vmProvider.js';
import type { NodeConnections } from './nodeConnections.js';

/** How long a node's engine has to answer a ping before the node reads lost. */
export const PING_MS = 2_000;
/** How long a manager has to list the swarm's nodes (a manager mid-election stalls: the next one is asked). */
const LIST_MS = 3_000;

/** A node VM asked for its state: its engine when it answered, or why it did not. */
type Probe =
  | { vm: VmRow; index: number; engine: NodeEngine }
  | { vm: VmRow; index: number; engine?: undefined };

/**
 * The state of a workspace's nodes now: each node's engine pinged within PING_MS, and — for a workspace on
 * several VMs — the swarm's own view (state and availability), asked of the first answering engine that is a
 * manager. A node is lost when its engine does not answer or the managers marked it down: an engine killed fails
 * its ping at once, a network cut between the nodes shows in the managers' view after their heartbeats (about
 * 6 s with prepareCluster's 2 s heartbeat).
 */
export async function readNodeStates(
  connections: NodeConnections,
  vms: VmRow[],
  count: number,
): Promise<WorkspaceNode[]> {
  const byIndex = new Map(vms.map((vm) => [vm.nodeIndex ?? 1, vm]));
  const probes = await Promise.all(
    [...byIndex].map(async ([index, vm]): Promise<Probe> => {
      try {
        const { engine } = await connections.get(vm);
        // dockerode's ping takes no signal: the deadline is engineCall's (the request ends at the engine's own).
        await engineCall(`ping ${vm.name}`, () => engine.docker.ping(), PING_MS);
        return { vm, index, engine };
      } catch {
        await connections.drop(vm);
        return { vm, index };
      }
    }),
  );
  const swarm = byIndex.size > 1 ? await swarmView(probes) : undefined;
  const last = Math.max(count, ...byIndex.keys());
  return Array.from({ length: last }, (_, offset) => {
    const index = offset + 1;
    const probe = probes.find((item) => item.index === index);
    const base = { index, leaving: index > count };
    if (!probe) {
      return {
        ...base,
        state: 'pending',
        role: null,
        message: `Node ${index} gets its VM at the next deployment`,
      };
    }
    const member = swarm && memberAt(swarm, probe.engine?.address ?? probe.vm.privateIp);
    const role = member?.role ?? null;
    if (!probe.engine) {
      return {
        ...base,
        state: 'lost',
        role,
        message: `Node ${index}'s engine did not answer within ${PING_MS / 1000} s`,
      };
    }
    if (member && member.state !== 'ready') {
      return {
        ...base,
        state: 'lost',
        role,
        message: `The cluster's managers see node ${index} as ${member.state}`,
      };
    }
    if (member && member.availability !== 'active') {
      return {
        ...base,
        state: 'drained',
        role,
        message: `Node ${index} is drained: its work runs on the other nodes`,
      };
    }
    return { ...base, state: 'ready', role, message: null };
  });
}

/** The swarm's nodes as the first answering manager lists them; undefined when none answers (or no swarm). */
async function swarmView(probes: Probe[]): Promise<SwarmNode[] | undefined> {
  for (const probe of probes) {
    if (!probe.engine) continue;
    // A worker, or an engine in no swarm, refuses at once; a manager mid-election is given LIST_MS.
    const listed = await listSwarmNodes(probe.engine, LIST_MS).catch(() => undefined);
    if (listed) return listed;
  }
  return undefined;
}

/** The node at this address; of several (a node that left and joined again), the one that is ready. */
function memberAt(swarm: SwarmNode[], address: string | null): SwarmNode | undefined {
  const at = swarm.filter((node) => node.address === address);
  return at.find((node) => node.state === 'ready') ?? at[0];
}
