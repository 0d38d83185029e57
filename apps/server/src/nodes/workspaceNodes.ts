import {
  DEFAULT_VM_SIZE,
  findVmSize,
  type StartDeploymentRequest,
  type WorkspaceNode,
  type WorkspaceNodes,
} from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { NodeEngine } from '../infra/swarm/swarmCall.js';
import type { UserRow } from '../users/usersRepository.js';
import { checkNodeCount } from '../vm-providers/nodeVms.js';
import type { VmProvider, VmRow } from '../vm-providers/vmProvider.js';
import type { VmRepository } from '../vm-providers/vmRepository.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createNodeConnections } from './nodeConnections.js';
import { readNodeStates } from './nodeStates.js';

/** A workspace's node states are read at most this often: the dashboard, the list and the monitor share a read. */
const STATES_FRESH_MS = 2_000;

/** Billing's word on whether `nodes` nodes of the VM size are paid for (throws a DomainError when not). */
export type AuthorizeNodes = (
  userId: string,
  workspaceName: string,
  vmSize: string,
  nodes: number,
  subscriptionId?: string | null,
) => Promise<unknown>;

/**
 * "A workspace has N nodes", all but the rollout: the count (stored on the workspace, applied by the next
 * deployment), the VMs of its nodes through the VM provider, their engines for the Swarm adapter, and each
 * node's state now. A preview stays on one node.
 */
export function createWorkspaceNodes(deps: {
  workspaces: Pick<WorkspacesRepository, 'findOwned' | 'findByName' | 'update' | 'findVm'>;
  vms: Pick<VmRepository, 'listNodes'>;
  provider: VmProvider;
  authorize?: AuthorizeNodes;
}) {
  const connections = createNodeConnections({ provider: deps.provider });
  /** Per workspace: its last read of the states, what it was read for, and when. */
  const recent = new Map<string, { key: string; at: number; states: Promise<WorkspaceNode[]> }>();

  /** The nodes the workspace runs on from its next deployment: a preview's is always one. */
  const countOf = (row: Pick<WorkspaceRow, 'previewOf' | 'nodeCount'>) => (row.previewOf ? 1 : row.nodeCount);

  /** The VMs of the workspace's nodes that exist, node 1 first (one made before nodes were counted included). */
  async function vmsOf(row: WorkspaceRow): Promise<VmRow[]> {
    const rows = await deps.vms.listNodes(row.id);
    if (row.vmId && !rows.some((vm) => vm.id === row.vmId)) {
      const first = await deps.workspaces.findVm(row.vmId);
      // `workspaces.vm_id` is node 1, whatever its row says.
      if (first) return [{ ...first, nodeIndex: 1 }, ...rows.filter((vm) => vm.nodeIndex !== 1)];
    }
    return rows;
  }

  /**
   * Each node now, read at most every STATES_FRESH_MS per workspace (a change of its count or its VMs reads
   * anew at once).
   */
  function states(row: WorkspaceRow): Promise<WorkspaceNode[]> {
    const now = Date.now();
    for (const [id, entry] of recent) if (now - entry.at > STATES_FRESH_MS) recent.delete(id);
    const key = JSON.stringify([countOf(row), row.vmId]);
    const fresh = recent.get(row.id);
    if (fresh?.key === key) return fresh.states;
    const read = vmsOf(row).then((vms) => readNodeStates(connections, vms, countOf(row)));
    const entry = { key, at: now, states: read };
    recent.set(row.id, entry);
    // A failed read is not kept: the next ask reads again.
    read.catch(() => {
      if (recent.get(row.id) === entry) recent.delete(row.id);
    });
    return read;
  }

  async function present(row: WorkspaceRow): Promise<WorkspaceNodes> {
    return { node_count: countOf(row), nodes: await states(row) };
  }

  /**
   * Whether the workspace may run on `count` nodes: not a preview, no more than the VM provider gives, and — for
   * more than it has now — paid for.
   */
  async function check(
    userId: string,
    row: Pick<WorkspaceRow, 'name' | 'vmSize' | 'previewOf' | 'nodeCount'>,
    count: number,
    subscriptionId?: string | null,
  ) {
    if (row.previewOf && count !== 1) {
      throw new DomainError(
        'unprocessable',
        `${row.name} is a preview: a preview runs on one node, whatever its workspace runs on`,
      );
    }
    checkNodeCount(deps.provider.nodeLimit, count);
    if (count > countOf(row)) await deps.authorize?.(userId, row.name, row.vmSize, count, subscriptionId);
  }

  return {
    countOf,
    states,
    present,

    /** The workspace's node count by its owner and name; 1 for one that does not exist yet. */
    async countByName(userId: string, name: string): Promise<number> {
      const row = await deps.workspaces.findByName(userId, name);
      return row ? countOf(row) : 1;
    },

    /** GET /api/workspace-nodes/{name}. */
    async read(user: UserRow, name: string): Promise<WorkspaceNodes> {
      return present(await deps.workspaces.findOwned(user.id, name));
    },

    /** PUT /api/workspace-nodes/{name}: stored now, applied by the next deployment (nothing is deployed). */
    async set(user: UserRow, name: string, count: number): Promise<WorkspaceNodes> {
      const row = await deps.workspaces.findOwned(user.id, name);
      if (count === countOf(row)) return present(row);
      await check(user.id, row, count);
      await deps.workspaces.update(row.id, { nodeCount: count });
      return present({ ...row, nodeCount: count });
    },

    /**
     * A deployment started with `nodes`: checked (and the workspace's count stored) before `start`, so the
     * deployment and its payment check see it; a workspace the start makes gets its count right after.
     */
    async startWithNodes<T>(
      user: UserRow,
      request: StartDeploymentRequest,
      start: () => Promise<T>,
    ): Promise<T> {
      const nodes = request.nodes;
      if (nodes === undefined) return start();
      const existing = await deps.workspaces.findByName(user.id, request.repo);
      if (existing) {
        if (nodes !== countOf(existing)) {
          await check(user.id, existing, nodes, request.subscriptionId);
          await deps.workspaces.update(existing.id, { nodeCount: nodes });
        }
        return start();
      }
      const vmSize = findVmSize(request.vmSize ?? DEFAULT_VM_SIZE)?.id ?? DEFAULT_VM_SIZE;
      await check(
        user.id,
        { name: request.repo, vmSize, previewOf: null, nodeCount: 1 },
        nodes,
        request.subscriptionId,
      );
      const answer = await start();
      const made = await deps.workspaces.findByName(user.id, request.repo);
      if (made && made.nodeCount !== nodes) await deps.workspaces.update(made.id, { nodeCount: nodes });
      return answer;
    },

    /**
     * For the rollout: the VMs of nodes 1…count, made (and waited for) where missing. Nodes beyond the count stay
     * until `releaseBeyond`, once their work has moved.
     */
    async provision(row: WorkspaceRow, options: { signal?: AbortSignal } = {}): Promise<VmRow[]> {
      const size = findVmSize(row.vmSize) ?? findVmSize(DEFAULT_VM_SIZE)!;
      recent.delete(row.id);
      return deps.provider.ensureNodes(row, size, countOf(row), options);
    },

    /**
     * For the rollout: the engines of the workspace's nodes 1…count that have a VM (node 1 first), as
     * `prepareCluster` takes them, with their VMs. The connections are the pool the states use: held while used,
     * closed when idle or at `close`.
     */
    async engines(row: WorkspaceRow): Promise<{ engines: NodeEngine[]; vms: VmRow[] }> {
      const vms = (await vmsOf(row)).filter((vm) => (vm.nodeIndex ?? 1) <= countOf(row));
      const engines = await Promise.all(vms.map(async (vm) => (await connections.get(vm)).engine));
      return { engines, vms };
    },

    /** For the rollout, once their work has moved: gives back the VMs of the nodes beyond the count. */
    async releaseBeyond(row: WorkspaceRow): Promise<void> {
      recent.delete(row.id);
      for (const vm of await vmsOf(row)) {
        if ((vm.nodeIndex ?? 1) > countOf(row)) {
          await connections.drop(vm);
          await deps.provider.releaseNode(vm);
        }
      }
    },

    /** A workspace deleted: its nodes 2… are given back (node 1 goes with the workspace's runtime). */
    async releaseAll(row: WorkspaceRow): Promise<void> {
      recent.delete(row.id);
      for (const vm of await vmsOf(row)) {
        if ((vm.nodeIndex ?? 1) > 1) {
          await connections.drop(vm);
          await deps.provider.releaseNode(vm);
        }
      }
    },

    close: () => connections.closeAll(),
  };
}

export type WorkspaceNodesService = ReturnType<typeof createWorkspaceNodes>;
