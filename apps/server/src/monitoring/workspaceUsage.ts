import type { ContainerHealth, NetworkInterfaceInfo } from '@slipway/contract';
import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import type Docker from 'dockerode';
import { type ContainerSummary, listServiceContainers } from '../workspaces/workspaceDocker.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { containerHealth, type EngineStats } from './containerStats.js';
import { round1 } from './procReadings.js';

/** What one workspace may use: its VM size, narrowed by its containers' cgroup memory limits. */
export interface WorkspaceLimits {
  vcpus: number;
  memoryBytes: number;
}

interface ContainerReading {
  health: ContainerHealth;
  interfaces: NetworkInterfaceInfo[];
}

/** One `stats` reading of each running service container of the workspace (never the `system` one). */
export async function readWorkspaceContainers(
  docker: Docker,
  row: Pick<WorkspaceRow, 'id'>,
): Promise<ContainerReading[]> {
  return readContainers(docker, await listServiceContainers(docker, row.id));
}

/** One `stats` reading of each of these containers that runs (a listing the caller already made). */
export async function readContainers(
  docker: Docker,
  containers: readonly ContainerSummary[],
): Promise<ContainerReading[]> {
  const running = containers.filter((c) => c.State === 'running');
  const readings = await Promise.all(
    running.map(async (summary): Promise<ContainerReading | undefined> => {
      const name = summary.Names[0]?.replace(/^\//, '') ?? summary.Id.slice(0, 12);
      try {
        const stats = (await docker.getContainer(summary.Id).stats({ stream: false })) as EngineStats;
        const interfaces = Object.entries(stats.networks ?? {}).map(([iface, counters]) => ({
          name: `${name}/${iface}`,
          rx_bytes: counters.rx_bytes ?? 0,
          tx_bytes: counters.tx_bytes ?? 0,
        }));
        return { health: containerHealth(name, summary.Image, stats), interfaces };
      } catch {
        return undefined; // stopped between the list and the stats call
      }
    }),
  );
  return readings.filter((reading) => reading !== undefined);
}

/**
 * The VM size's vCPUs and memory. When every container has a cgroup memory limit and together they
 * allow less than the VM size, that smaller total is the real ceiling.
 */
export function workspaceLimits(row: WorkspaceRow, containers: readonly ContainerReading[]): WorkspaceLimits {
  const size = findVmSize(row.vmSize) ?? findVmSize(DEFAULT_VM_SIZE);
  const vmMemory = (size?.memoryMb ?? 1024) * 1024 * 1024;
  const limits = containers.map((c) => c.health.memory_limit);
  const allLimited = limits.length > 0 && limits.every((limit) => limit > 0);
  const cgroupMemory = limits.reduce((sum, limit) => sum + limit, 0);
  return {
    vcpus: size?.vcpus ?? 2,
    memoryBytes: allLimited ? Math.min(vmMemory, cgroupMemory) : vmMemory,
  };
}

/** The workspace's own usage: the sum of its containers, as a share of its own limits. */
export function workspaceUsage(limits: WorkspaceLimits, containers: readonly ContainerReading[]) {
  const sum = (pick: (health: ContainerHealth) => number) =>
    containers.reduce((total, c) => total + pick(c.health), 0);
  // docker stats' percent counts one busy core as 100; the VM's percent counts all its vCPUs as 100.
  const cpu = Math.min(100, round1(sum((h) => h.cpu_percent) / limits.vcpus));
  const used = sum((h) => h.memory_usage);
  return {
    cpu,
    memory: {
      used,
      total: limits.memoryBytes,
      percent: limits.memoryBytes > 0 ? round1((used / limits.memoryBytes) * 100) : 0,
    },
    rx: sum((h) => h.network_rx),
    tx: sum((h) => h.network_tx),
  };
}
