import type { Duplex } from 'node:stream';
import type { VmSize } from '@slipway/contract';
import type Docker from 'dockerode';
import type { vms } from '../infra/db/schema.js';
import type { NodeEngine } from '../infra/swarm/swarmCall.js';

export type VmRow = typeof vms.$inferSelect;

export interface WorkspaceRef {
  id: string;
  name: string;
  userId: string;
}

/** How the engine reaches a VM's Docker Engine and the ports published on it. */
export interface DockerTarget {
  docker: Docker;
  /** Environment for the Compose CLI (DOCKER_HOST, and HOME holding the SSH key for remote engines). */
  composeEnv: Record<string, string>;
  /** Address published ports bind to on the VM: loopback or the private network, never 0.0.0.0. */
  publishAddress: string;
  /** A TCP connection to a port published on the VM, for health checks. */
  connect(port: number): Promise<Duplex>;
  /** `host:port` the ingress proxy dials for a published port. */
  upstream(port: number): string;
  /** Free bytes where the engine keeps images and build cache, or undefined when it cannot be told. */
  freeDiskBytes(): Promise<number | undefined>;
  close(): Promise<void>;
}

/** Ends a connection to an engine once its work is done: a connection that already dropped has nothing to tell. */
export async function closeTarget(target: DockerTarget | undefined): Promise<void> {
  await target?.close().catch(() => {});
}

export interface VmDescription {
  status: string;
  privateIp: string | null;
}

/** A node's engine as the Swarm adapter reaches it, held open until `close`. */
export interface NodeConnection {
  engine: NodeEngine;
  close(): Promise<void>;
}

/** The most nodes one workspace can have on a provider, and the sentence that says why no more. */
export interface NodeLimit {
  max: number;
  reason: string;
}

/**
 * A VM per workspace node (the local and SSH providers share machines among workspaces, isolated by network).
 * Node 1 is the VM a one-node workspace runs on (`ensure`, `workspaces.vm_id`); a workspace on N nodes has N VMs
 * of its size, nodes 2…N being more `vms` rows tied to it (`workspace_id`, `node_index`).
 */
export interface VmProvider {
  readonly name: 'local' | 'ssh' | 'azure';
  /** The most nodes one workspace can have here; the reason names the setting that gives more. */
  readonly nodeLimit: NodeLimit;
  /** Returns the workspace's VM (its node 1), creating it (and waiting until it runs) if needed. */
  ensure(workspace: WorkspaceRef, size: VmSize, options?: { signal?: AbortSignal }): Promise<VmRow>;
  /**
   * The workspace's nodes 1…count in order, each created (and waited for) when missing; more than `nodeLimit.max`
   * is refused with its reason. Nodes beyond `count` are left as they are: `releaseNode` gives them back.
   */
  ensureNodes(
    workspace: WorkspaceRef,
    size: VmSize,
    count: number,
    options?: { signal?: AbortSignal },
  ): Promise<VmRow[]>;
  /** Gives a node (2 and above) back: its VM deleted where it was made for the workspace, its record removed. */
  releaseNode(vm: VmRow): Promise<void>;
  connect(vm: VmRow): Promise<DockerTarget>;
  /** A node's engine with its address on the network the nodes share: what a Swarm is made of. */
  nodeEngine(vm: VmRow): Promise<NodeConnection>;
  describe(vm: VmRow): Promise<VmDescription>;
  delete(vm: VmRow): Promise<void>;
}
