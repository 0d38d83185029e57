import net from 'node:net';
import type { VmSize } from '@slipway/contract';
import type { ClusterSettings } from '../config/clusterConfig.js';
import { createDocker } from '../infra/docker/dockerode.js';
import { localFreeBytes } from './engineDisk.js';
import { ensureNodeVms, NODE_LIMITS } from './nodeVms.js';
import type { DockerTarget, VmProvider, VmRow, WorkspaceRef } from './vmProvider.js';
import { nodeVmNameFor, type VmRepository, vmNameFor } from './vmRepository.js';

/** Opens a TCP connection and resolves once it is established. */
export function tcpConnect(host: string, port: number, timeoutMs = 3000): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`connect ${host}:${port} timed out`)), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** What a local node's row keeps: the socket of the engine it stands for (node 1's is DOCKER_SOCKET). */
interface LocalNodeData {
  socketPath?: string;
}

/**
 * The embedded default: this machine's Docker Engine stands in for every workspace's VM. Isolation comes from
 * the per-workspace Compose project and network; the VM size's CPU and memory become container limits. With
 * CLUSTER_ENGINES, more engines (each in a network namespace or on another machine, reached by its socket) stand
 * in for nodes 2, 3, … — node k of every workspace on several nodes is the same engine, as node 1 is this one.
 */
export function createLocalVmProvider(deps: {
  vmRepository: VmRepository;
  dockerSocket: string;
  /** The engines of nodes 2, 3, …, and node 1's address among them (config/clusterConfig.ts). */
  cluster?: Pick<ClusterSettings, 'engines' | 'localAddress'>;
}): VmProvider {
  const engines = deps.cluster?.engines ?? [];
  const socketOf = (vm: VmRow) => (vm.providerData as LocalNodeData).socketPath ?? deps.dockerSocket;
  const target = (vm: VmRow): DockerTarget => {
    const socketPath = socketOf(vm);
    // Every engine call has its deadline (infra/docker/engineDeadlines.ts).
    const docker = createDocker({ socketPath });
    // Node 1 publishes on loopback as always; another engine on its own address, where Caddy reaches it.
    const host = socketPath === deps.dockerSocket ? '127.0.0.1' : (vm.privateIp ?? '127.0.0.1');
    return {
      docker,
      composeEnv: { DOCKER_HOST: `unix://${socketPath}` },
      publishAddress: host,
      connect: (port) => tcpConnect(host, port),
      upstream: (port) => `${host}:${port}`,
      freeDiskBytes: () => localFreeBytes(docker),
      close: async () => {},
    };
  };
  const nodeLimit = NODE_LIMITS.local(engines.length);

  const ensure: VmProvider['ensure'] = async (workspace, size) =>
    deps.vmRepository.insert({
      name: vmNameFor('local', workspace.id),
      provider: 'local',
      userId: workspace.userId,
      size: size.id,
      location: 'local',
      status: 'running',
      privateIp: '127.0.0.1',
      workspaceId: workspace.id,
      nodeIndex: 1,
    });

  async function ensureNode(workspace: WorkspaceRef, size: VmSize, index: number): Promise<VmRow> {
    const engine = engines[index - 2]!;
    const values = { privateIp: engine.address, providerData: { socketPath: engine.socketPath } };
    const row = await deps.vmRepository.insert({
      name: nodeVmNameFor('local', workspace.id, index),
      provider: 'local',
      userId: workspace.userId,
      size: size.id,
      location: 'local',
      status: 'running',
      workspaceId: workspace.id,
      nodeIndex: index,
      ...values,
    });
    // CLUSTER_ENGINES changed since the row was made: the node is the engine the setting names now.
    const moved = row.privateIp !== engine.address || socketOf(row) !== engine.socketPath;
    return moved ? deps.vmRepository.update(row.id, values) : row;
  }

  return {
    name: 'local',
    nodeLimit,
    ensure,
    ensureNodes: (workspace, size, count) =>
      ensureNodeVms(
        nodeLimit,
        count,
        () => ensure(workspace, size),
        (index) => ensureNode(workspace, size, index),
      ),
    async releaseNode(vm) {
      // The engine serves every workspace's node of that number: only this workspace's record goes.
      await deps.vmRepository.remove(vm.id);
    },
    async connect(vm) {
      return target(vm);
    },
    async nodeEngine(vm) {
      // This machine's engine is node 1: the others reach it at CLUSTER_LOCAL_ADDRESS (required with
      // CLUSTER_ENGINES, without which no workspace has a second node).
      const own = socketOf(vm) === deps.dockerSocket;
      const address = (own ? deps.cluster?.localAddress : undefined) ?? vm.privateIp ?? '127.0.0.1';
      return { engine: { name: vm.name, address, docker: target(vm).docker }, close: async () => {} };
    },
    async describe(vm) {
      try {
        await target(vm).docker.ping();
        return { status: 'running', privateIp: vm.privateIp };
      } catch {
        return { status: 'unreachable', privateIp: vm.privateIp };
      }
    },
    async delete(vm) {
      await deps.vmRepository.remove(vm.id);
    },
  };
}
