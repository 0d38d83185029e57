import type { Duplex } from 'node:stream';
import type { VmSize } from '@slipway/contract';
import type Docker from 'dockerode';
import type { vms } from '../infra/db/schema.js';

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

/** One VM per workspace (the local and SSH providers share one machine among workspaces, isolated by network). */
export interface VmProvider {
  readonly name: 'local' | 'ssh' | 'azure';
  /** Returns the workspace's VM, creating it (and waiting until it runs) if needed. */
  ensure(workspace: WorkspaceRef, size: VmSize, options?: { signal?: AbortSignal }): Promise<VmRow>;
  connect(vm: VmRow): Promise<DockerTarget>;
  describe(vm: VmRow): Promise<VmDescription>;
  delete(vm: VmRow): Promise<void>;
}
