import { randomInt } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listProjectContainers } from '../infra/docker/projectResources.js';

/** `{service: {containerPort: hostPort}}`: the fixed host port of every published container port. */
export type HostPorts = Record<string, Record<string, number>>;

/**
 * Host ports are chosen below Linux's ephemeral range (32768+), where Docker and the kernel pick their own
 * ports, so a fixed port never collides with one they hand out.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 32_000;

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
      for (const binding of (bindings ?? []) as { HostPort?: string }[]) {
        const port = Number(binding.HostPort);
        if (port > 0) bound.set(port, project);
      }
    }
  }
  return bound;
}

/** The host ports the workspace's current containers bind, for a workspace deployed before ports were kept. */
export async function hostPortsOfContainers(docker: Docker, workspaceId: string): Promise<HostPorts> {
  const found: HostPorts = {};
  for (const container of await listProjectContainers(docker, workspaceId)) {
    const service = container.Labels?.[LABELS.composeService];
    if (!service) continue;
    for (const port of container.Ports ?? []) {
      if (port.Type === 'tcp' && port.PublicPort) {
        // Replicas bind a range of host ports: the first of it is the service's.
        const known = found[service]?.[String(port.PrivatePort)];
        const first = known === undefined ? port.PublicPort : Math.min(known, port.PublicPort);
        found[service] = { ...found[service], [String(port.PrivatePort)]: first };
      }
    }
  }
  return found;
}

/**
 * One fixed host port per published container port: the one the service had before when it is still free
 * for this workspace, otherwise a new one that no container of the engine binds and nothing answers on.
 * Written into the project file, the binding survives Docker restarting a crashed container. A service of N
 * replicas gets N consecutive ports from that one (runtimePlan.ts writes them as a range).
 */
export async function allocateHostPorts(options: {
  docker: Docker;
  workspaceId: string;
  /** The project the ports are for (the workspace's own unless a redeploy's candidate): its own ports are free to it. */
  project?: string;
  planned: Record<string, number[]>;
  /** Replicas per service (absent: 1). */
  replicas?: Record<string, number>;
  previous: HostPorts;
  connect: (port: number) => Promise<Duplex>;
}): Promise<HostPorts> {
  const bound = await boundPorts(options.docker);
  const ours = options.project ?? composeProjectName(options.workspaceId);
  const taken = new Set<number>();
  const isFree = async (port: number) => {
    if (taken.has(port)) return false;
    const owner = bound.get(port);
    if (owner !== undefined) return owner === ours;
    try {
      (await options.connect(port)).destroy();
      return false;
    } catch {
      return true;
    }
  };
  const allFree = async (first: number, count: number) => {
    for (let port = first; port < first + count; port++) if (!(await isFree(port))) return false;
    return true;
  };
  const result: HostPorts = {};
  for (const [service, containerPorts] of Object.entries(options.planned)) {
    const count = Math.max(1, options.replicas?.[service] ?? 1);
    for (const containerPort of containerPorts) {
      const before = options.previous[service]?.[String(containerPort)];
      let port = before !== undefined && (await allFree(before, count)) ? before : undefined;
      for (let attempt = 0; port === undefined && attempt < 200; attempt++) {
        const candidate = randomInt(FIRST_PORT, LAST_PORT - count);
        if (!bound.has(candidate) && (await allFree(candidate, count))) port = candidate;
      }
      if (port === undefined) throw new Error('No free host port left on the VM');
      for (let taking = port; taking < port + count; taking++) taken.add(taking);
      result[service] = { ...result[service], [String(containerPort)]: port };
    }
  }
  return result;
}
