import { randomInt } from 'node:crypto';
import type { Duplex } from 'node:stream';

/** `{service: {containerPort: hostPort}}`: the fixed host port of every published container port. */
export type HostPorts = Record<string, Record<string, number>>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Host ports as a deployment's record keeps them (`metadata.host_ports`), or none when it keeps none. */
export function keptHostPorts(kept: unknown): HostPorts {
  if (!isRecord(kept)) return {};
  const ports: HostPorts = {};
  for (const [service, bound] of Object.entries(kept)) {
    if (!isRecord(bound)) continue;
    for (const [containerPort, hostPort] of Object.entries(bound)) {
      if (typeof hostPort === 'number') ports[service] = { ...ports[service], [containerPort]: hostPort };
    }
  }
  return ports;
}

/**
 * Host ports are chosen below Linux's ephemeral range (32768+), where Docker and the kernel pick their own
 * ports, so a fixed port never collides with one they hand out.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 32_000;

/**
 * The host ports the serving copy's replicas bind, for a workspace deployed before ports were kept. Replicas
 * bind a range of host ports: the first of it is the service's.
 */
export function hostPortsOfReplicas(
  replicas: { service: string; ports: { containerPort: number; hostPort: number }[] }[],
): HostPorts {
  const found: HostPorts = {};
  for (const replica of replicas) {
    for (const { containerPort, hostPort } of replica.ports) {
      const known = found[replica.service]?.[String(containerPort)];
      const first = known === undefined ? hostPort : Math.min(known, hostPort);
      found[replica.service] = { ...found[replica.service], [String(containerPort)]: first };
    }
  }
  return found;
}

/**
 * One fixed host port per published container port: the one the service had before when it is still free
 * for this slot, otherwise a new one that nothing on the VM binds and nothing answers on.
 * Written into the project file, the binding survives Docker restarting a crashed container. A service of N
 * replicas gets N consecutive ports from that one (runtimePlan.ts writes them as a range).
 */
export async function allocateHostPorts(
  engine: {
    /** Host ports bound on the VM, with who binds each (the slot of this workspace that does, or another). */
    portsInUse(): Promise<Map<number, string>>;
    connect(port: number): Promise<Duplex>;
  },
  options: {
    /** The slot the ports are for (`serving` or `green`): its own ports are free to it. */
    slot: string;
    planned: Record<string, number[]>;
    /** Replicas per service (absent: 1). */
    replicas?: Record<string, number>;
    previous: HostPorts;
  },
): Promise<HostPorts> {
  const bound = await engine.portsInUse();
  const ours = options.slot;
  const taken = new Set<number>();
  const isFree = async (port: number) => {
    if (taken.has(port)) return false;
    const owner = bound.get(port);
    if (owner !== undefined) return owner === ours;
    try {
      (await engine.connect(port)).destroy();
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
