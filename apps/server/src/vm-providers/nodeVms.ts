import { MAX_WORKSPACE_NODES } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { NodeLimit, VmRow } from './vmProvider.js';

/** A provider with machines for `extra` more nodes besides node 1 (listed in `setting`). */
function nodeLimitOf(extra: number, noneReason: string, setting: string): NodeLimit {
  const max = Math.min(MAX_WORKSPACE_NODES, 1 + extra);
  if (extra === 0) return { max, reason: noneReason };
  return {
    max,
    reason: `This server has ${setting} for ${extra} more ${extra === 1 ? 'node' : 'nodes'}: a workspace runs on at most ${max} nodes here`,
  };
}

/**
 * The node limits, known from the configuration alone (the lazily loaded providers' limits are asked before their
 * modules load): the local provider has one engine plus CLUSTER_ENGINES, the SSH provider one server plus
 * SSH_CLUSTER_HOSTS, Azure a VM of its own per node.
 */
export const NODE_LIMITS = {
  local: (engines: number) =>
    nodeLimitOf(
      engines,
      'This server runs every workspace on its one Docker Engine: more than one node needs CLUSTER_ENGINES (the engines of nodes 2 to 5, as unix:///path/to/engine.sock@address)',
      'CLUSTER_ENGINES',
    ),
  ssh: (hosts: number) =>
    nodeLimitOf(
      hosts,
      'This server runs workspaces on one SSH server: more than one node needs SSH_CLUSTER_HOSTS (the servers of nodes 2 to 5)',
      'SSH_CLUSTER_HOSTS',
    ),
  azure: (): NodeLimit => ({
    max: MAX_WORKSPACE_NODES,
    reason: `A workspace runs on at most ${MAX_WORKSPACE_NODES} nodes`,
  }),
};

/** Refuses a node count the provider cannot give, with the provider's reason. */
export function checkNodeCount(limit: NodeLimit, count: number): void {
  if (count > limit.max) throw new DomainError('unprocessable', limit.reason);
}

/**
 * A workspace's nodes 1…count: node 1 first (the VM a one-node workspace runs on), then the others side by side
 * (a cloud VM takes minutes to make; they do not wait for each other).
 */
export async function ensureNodeVms(
  limit: NodeLimit,
  count: number,
  first: () => Promise<VmRow>,
  node: (index: number) => Promise<VmRow>,
): Promise<VmRow[]> {
  checkNodeCount(limit, count);
  const one = await first();
  const others = await Promise.all(Array.from({ length: count - 1 }, (_, offset) => node(offset + 2)));
  return [one, ...others];
}
