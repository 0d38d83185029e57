import type { SystemHealthContainers, SystemHealthStatus, SystemInfo, VmHealth } from '@slipway/contract';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import type { DockerFor } from '../workspaces/workspaceDocker.js';
import { listServiceContainers } from '../workspaces/workspaceDocker.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { containerHealth, type EngineStats } from './containerStats.js';
import type { MetricsRepository } from './metricsRepository.js';
import {
  type CpuTimes,
  cpuPercentBetween,
  isPhysicalInterface,
  parseCpuinfo,
  parseCpuTimes,
  parseMeminfo,
  parseNetDev,
} from './procReadings.js';
import { ensureSystemContainer, findSystemContainer, readHostFiles } from './systemContainer.js';

export const NO_VM = 'No VM configured for this workspace';
export const NO_CONTAINERS = 'No Containers Found';
const NOT_DEPLOYED = 'System health monitoring is not deployed for this workspace';
/** Window between the two /proc/stat samples of a fresh CPU reading. */
const CPU_SAMPLE_MS = 500;
/** A previous /proc/stat sample this recent is a good enough "before". */
const CPU_REUSE_MS = 60_000;
const HISTORY_MS = 60 * 60_000;

/**
 * System health of a workspace's VM, read for real: host numbers from /proc through the `system`
 * container, per-container numbers from the engine's stats.
 */
export function createSystemHealthService(deps: {
  workspaces: WorkspacesRepository;
  metrics: MetricsRepository;
  dockerFor: DockerFor;
  systemImage: string;
  defaultProvider: 'local' | 'azure' | 'ssh';
  logger: Logger;
}) {
  const lastCpu = new Map<string, { times: CpuTimes; at: number }>();

  async function ownedWithVm(userId: string, name: string): Promise<WorkspaceRow> {
    const row = await deps.workspaces.findOwned(userId, name);
    if (!row.vmId) throw new DomainError('unprocessable', NO_VM);
    return row;
  }

  async function systemContainerOf(
    row: WorkspaceRow,
  ): Promise<{ docker: Docker; container: Docker.Container }> {
    const docker = deps.dockerFor(row);
    const container = await findSystemContainer(docker, row.id);
    if (!container) throw new DomainError('conflict', NOT_DEPLOYED);
    return { docker, container };
  }

  async function cpuPercent(row: WorkspaceRow, docker: Docker, container: Docker.Container): Promise<number> {
    const read = async () => parseCpuTimes(await readHostFiles(docker, container, ['stat']));
    const previous = lastCpu.get(row.id);
    let before = previous && Date.now() - previous.at < CPU_REUSE_MS ? previous.times : undefined;
    if (!before || Date.now() - (previous?.at ?? 0) < CPU_SAMPLE_MS) {
      before = await read();
      await new Promise((resolve) => setTimeout(resolve, CPU_SAMPLE_MS));
    }
    const after = await read();
    lastCpu.set(row.id, { times: after, at: Date.now() });
    return cpuPercentBetween(before, after);
  }

  /** A reading of the host: what the metrics route and the sampler both need. */
  async function readVm(row: WorkspaceRow) {
    const { docker, container } = await systemContainerOf(row);
    const [cpu, meminfo, netDev] = await Promise.all([
      cpuPercent(row, docker, container),
      readHostFiles(docker, container, ['meminfo']),
      // /proc/net follows the reader's network namespace; pid 1's is the host's.
      readHostFiles(docker, container, ['1/net/dev']),
    ]);
    const memory = parseMeminfo(meminfo);
    const interfaces = parseNetDev(netDev).filter((iface) => isPhysicalInterface(iface.name));
    return {
      cpu,
      memory,
      rx: interfaces.reduce((sum, iface) => sum + iface.rx_bytes, 0),
      tx: interfaces.reduce((sum, iface) => sum + iface.tx_bytes, 0),
    };
  }

  return {
    async status(userId: string, name: string): Promise<SystemHealthStatus> {
      const row = await deps.workspaces.findOwned(userId, name);
      if (!row.vmId) return { system_health_deployed: false, message: NO_VM };
      const container = await findSystemContainer(deps.dockerFor(row), row.id);
      return container
        ? { system_health_deployed: true, message: 'System health monitoring is active' }
        : { system_health_deployed: false, message: NOT_DEPLOYED };
    },

    async deploy(userId: string, name: string): Promise<SystemHealthStatus & { success: true }> {
      const row = await ownedWithVm(userId, name);
      try {
        await ensureSystemContainer(deps.dockerFor(row), row, deps.systemImage);
      } catch (error) {
        deps.logger.error({ err: error, workspace: row.id }, 'system container failed to start');
        throw new DomainError('upstream_failed', 'Failed to deploy system health monitoring', {
          detail: 'The VM did not start the system health container. Try again in a minute.',
        });
      }
      return { success: true, system_health_deployed: true, message: 'System health monitoring deployed' };
    },

    async info(userId: string, name: string): Promise<{ system_info: SystemInfo }> {
      const row = await ownedWithVm(userId, name);
      const { docker, container } = await systemContainerOf(row);
      const [cpuinfo, meminfo, netDev, engine, vm] = await Promise.all([
        readHostFiles(docker, container, ['cpuinfo']),
        readHostFiles(docker, container, ['meminfo']),
        readHostFiles(docker, container, ['1/net/dev']),
        docker.info() as Promise<{ Name?: string; NCPU?: number }>,
        deps.workspaces.findVm(row.vmId),
      ]);
      const cpu = parseCpuinfo(cpuinfo);
      const provider = vm?.provider;
      return {
        system_info: {
          cpu_cores: cpu.cores || engine.NCPU || 0,
          cpu_frequency_mhz: cpu.frequencyMhz,
          memory_total: parseMeminfo(meminfo).total,
          network_interfaces: parseNetDev(netDev),
          cloud_provider:
            provider === 'azure' || provider === 'ssh' || provider === 'local'
              ? provider
              : deps.defaultProvider,
          // The engine's name is the host's; /proc/sys/kernel/hostname would be the container's.
          hostname: engine.Name ?? '',
        },
      };
    },

    async vmHealth(userId: string, name: string): Promise<{ vm_health: VmHealth }> {
      const row = await ownedWithVm(userId, name);
      const reading = await readVm(row);
      const history = await deps.metrics.since(row.id, new Date(Date.now() - HISTORY_MS));
      return {
        vm_health: {
          cpu_usage_percent: reading.cpu,
          memory_used: reading.memory.used,
          memory_total: reading.memory.total,
          memory_usage_percent: reading.memory.percent,
          network_rx_bytes: reading.rx,
          network_tx_bytes: reading.tx,
          history,
        },
      };
    },

    async containers(userId: string, name: string): Promise<SystemHealthContainers> {
      const row = await ownedWithVm(userId, name);
      const docker = deps.dockerFor(row);
      const running = (await listServiceContainers(docker, row.id)).filter((c) => c.State === 'running');
      const entries = await Promise.all(
        running.map(async (summary) => {
          const name = summary.Names[0]?.replace(/^\//, '') ?? summary.Id.slice(0, 12);
          try {
            const stats = (await docker.getContainer(summary.Id).stats({ stream: false })) as EngineStats;
            return [name, containerHealth(name, summary.Image, stats)] as const;
          } catch {
            return undefined; // stopped between the list and the stats call
          }
        }),
      );
      const containers = Object.fromEntries(entries.filter((entry) => entry !== undefined));
      return Object.keys(containers).length > 0 ? { containers } : { containers, message: NO_CONTAINERS };
    },

    /** One sample for the history chart (the sampler calls this once a minute per workspace). */
    async sample(row: WorkspaceRow): Promise<boolean> {
      if (!row.vmId) return false;
      const container = await findSystemContainer(deps.dockerFor(row), row.id);
      if (!container) return false;
      const reading = await readVm(row);
      await deps.metrics.add(row.id, {
        cpuPercent: reading.cpu,
        memoryBytes: reading.memory.used,
        memoryPercent: reading.memory.percent,
      });
      return true;
    },
  };
}

export type SystemHealthService = ReturnType<typeof createSystemHealthService>;
