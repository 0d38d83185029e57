import type { SystemHealthContainers, SystemHealthStatus, SystemInfo, VmHealth } from '@slipway/contract';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import type { ContainerSummary, DockerFor } from '../workspaces/workspaceDocker.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { MetricsRepository } from './metricsRepository.js';
import { parseCpuinfo } from './procReadings.js';
import { ensureSystemContainer, findSystemContainer, readHostFiles } from './systemContainer.js';
import {
  readContainers,
  readWorkspaceContainers,
  workspaceLimits,
  workspaceUsage,
} from './workspaceUsage.js';

export const NO_VM = 'No VM configured for this workspace';
export const NO_CONTAINERS = 'No Containers Found';
const NOT_DEPLOYED = 'System health monitoring is not deployed for this workspace';
const HISTORY_MS = 60 * 60_000;

/**
 * System health of a workspace's VM, read for real and scoped to the workspace: its limits from its
 * VM size and cgroups, its usage and network from its own containers' engine stats (never the
 * host's totals or another workspace's interfaces), the CPU model from /proc through `system`.
 */
export function createSystemHealthService(deps: {
  workspaces: WorkspacesRepository;
  metrics: MetricsRepository;
  dockerFor: DockerFor;
  systemImage: string;
  defaultProvider: 'local' | 'azure' | 'ssh';
  logger: Logger;
}) {
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

  /** A reading of the workspace's own containers: what the metrics route and the sampler both need. */
  async function readVm(row: WorkspaceRow) {
    await systemContainerOf(row);
    const containers = await readWorkspaceContainers(deps.dockerFor(row), row);
    return workspaceUsage(workspaceLimits(row, containers), containers);
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

    /**
     * The workspace's VM as its owner sees it: the VM size's vCPUs and memory (narrowed by the cgroup
     * limits), the host CPU's frequency, and only this workspace's containers' network interfaces.
     */
    async info(userId: string, name: string): Promise<{ system_info: SystemInfo }> {
      const row = await ownedWithVm(userId, name);
      const { docker, container } = await systemContainerOf(row);
      const [cpuinfo, containers, vm] = await Promise.all([
        readHostFiles(docker, container, ['cpuinfo']),
        readWorkspaceContainers(docker, row),
        deps.workspaces.findVm(row.vmId),
      ]);
      const limits = workspaceLimits(row, containers);
      const provider = vm?.provider;
      return {
        system_info: {
          cpu_cores: limits.vcpus,
          cpu_frequency_mhz: parseCpuinfo(cpuinfo).frequencyMhz,
          memory_total: limits.memoryBytes,
          network_interfaces: containers.flatMap((c) => c.interfaces),
          cloud_provider:
            provider === 'azure' || provider === 'ssh' || provider === 'local'
              ? provider
              : deps.defaultProvider,
          // The VM's own name, never the host machine's.
          hostname: vm?.name ?? row.name,
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
      const readings = await readWorkspaceContainers(deps.dockerFor(row), row);
      const containers = Object.fromEntries(readings.map((r) => [r.health.name, r.health]));
      return readings.length > 0 ? { containers } : { containers, message: NO_CONTAINERS };
    },

    /**
     * One sample for the history chart of a workspace whose `system` container runs, from its service
     * containers of a listing the sampler made once for the whole engine.
     */
    async sample(row: WorkspaceRow, docker: Docker, services: readonly ContainerSummary[]): Promise<void> {
      const containers = await readContainers(docker, services);
      const reading = workspaceUsage(workspaceLimits(row, containers), containers);
      await deps.metrics.add(row.id, {
        cpuPercent: reading.cpu,
        memoryBytes: reading.memory.used,
        memoryPercent: reading.memory.percent,
      });
    },
  };
}

export type SystemHealthService = ReturnType<typeof createSystemHealthService>;
