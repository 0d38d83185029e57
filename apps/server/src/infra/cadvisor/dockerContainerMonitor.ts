import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type {
  CadvisorContainerInfo,
  CadvisorContainerStats,
  CadvisorMachineInfo,
  UnansweredContainer,
} from '@slipway/contract';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { DomainError } from '../../domain/errors.js';
import { createDocker, engineKey } from '../docker/dockerode.js';
import { isEngineDeadlineError } from '../docker/engineDeadlines.js';
import { stillUnanswered } from '../docker/unansweredContainers.js';
import type { ContainerMonitor } from './containerMonitor.js';

type DockerStats = Docker.ContainerStats;
type CpuStats = DockerStats['cpu_stats'];

const dockerUnreachable = (error: unknown) =>
  new DomainError('upstream_failed', `The Docker Engine is not reachable: ${(error as Error).message}`);

async function readFirstLine(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

function cpuUsage(cpu: CpuStats): CadvisorContainerStats['cpu'] {
  const usage = cpu?.cpu_usage;
  return {
    usage: {
      total: usage?.total_usage ?? 0,
      ...(usage?.percpu_usage ? { per_cpu_usage: usage.percpu_usage } : {}),
      user: usage?.usage_in_usermode ?? 0,
      system: usage?.usage_in_kernelmode ?? 0,
    },
  };
}

/** Docker's stats → one cAdvisor sample. Handles cgroup v1 (cache, rss) and v2 (file, anon) names. */
export function toCadvisorStats(stats: DockerStats): CadvisorContainerStats {
  const memory = stats.memory_stats ?? {};
  const detail = (memory.stats ?? {}) as unknown as Record<string, number | undefined>;
  const usage = memory.usage ?? 0;
  const inactiveFile = detail.total_inactive_file ?? detail.inactive_file ?? 0;
  const interfaces = Object.entries(stats.networks ?? {}).map(([name, net]) => ({
    name,
    rx_bytes: net.rx_bytes ?? 0,
    tx_bytes: net.tx_bytes ?? 0,
  }));
  return {
    timestamp: stats.read,
    cpu: cpuUsage(stats.cpu_stats),
    memory: {
      usage,
      working_set: Math.max(0, usage - inactiveFile),
      rss: detail.total_rss ?? detail.rss ?? detail.anon ?? 0,
      cache: detail.total_cache ?? detail.cache ?? detail.file ?? 0,
      ...(memory.max_usage ? { max_usage: memory.max_usage } : {}),
    },
    network: {
      rx_bytes: interfaces.reduce((sum, i) => sum + i.rx_bytes, 0),
      tx_bytes: interfaces.reduce((sum, i) => sum + i.tx_bytes, 0),
      interfaces,
    },
  };
}

/** The host as a whole (the root container '/'), from the kernel's counters as Node sees them. */
function hostSample(): CadvisorContainerStats {
  const cpus = os.cpus();
  const ms = (pick: (t: os.CpuInfo['times']) => number) => cpus.map((c) => pick(c.times) * 1e6);
  const perCpu = ms((t) => t.user + t.nice + t.sys + t.irq);
  const used = os.totalmem() - os.freemem();
  return {
    timestamp: new Date().toISOString(),
    cpu: {
      usage: {
        total: perCpu.reduce((a, b) => a + b, 0),
        per_cpu_usage: perCpu,
        user: ms((t) => t.user + t.nice).reduce((a, b) => a + b, 0),
        system: ms((t) => t.sys + t.irq).reduce((a, b) => a + b, 0),
      },
    },
    memory: { usage: used, working_set: used, rss: 0, cache: 0 },
    network: { rx_bytes: 0, tx_bytes: 0, interfaces: [] },
  };
}

/**
 * cAdvisor's shapes built from the Docker Engine. CPU usage is a cumulative counter, so a rate needs two
 * samples: the previous reading of each container is kept in memory and sent with the new one.
 */
export function createDockerContainerMonitor(options: {
  socketPath: string;
  logger: Logger;
}): ContainerMonitor {
  const docker = createDocker({ socketPath: options.socketPath });
  const engine = engineKey(docker);
  const previous = new Map<string, CadvisorContainerStats>();
  const nameOf = (summary: Docker.ContainerInfo) =>
    summary.Names[0]?.replace(/^\//, '') ?? summary.Id.slice(0, 12);

  function withPrevious(key: string, current: CadvisorContainerStats, fallback?: CadvisorContainerStats) {
    const before = previous.get(key) ?? fallback;
    previous.set(key, current);
    return before && before.timestamp !== current.timestamp ? [before, current] : [current];
  }

  /**
   * One container's card; a container the engine does not answer about is reported instead (and asked again in
   * the background once a minute), so one wedged container never holds the others' cards back.
   */
  async function containerInfo(
    summary: Docker.ContainerInfo,
  ): Promise<CadvisorContainerInfo | UnansweredContainer | undefined> {
    const known = previous.has(summary.Id);
    // One-shot is instant; the first reading waits for Docker's own pre-sample so a rate shows at once.
    const read = () =>
      docker.getContainer(summary.Id).stats({ stream: false, ...(known ? { 'one-shot': true } : {}) } as {
        stream: false;
      }) as Promise<DockerStats>;
    const unanswered = stillUnanswered(engine, summary.Id, read);
    if (unanswered) return { id: summary.Id, name: nameOf(summary), sentence: unanswered.sentence };
    let raw: DockerStats;
    try {
      raw = await read();
    } catch (error) {
      if (!isEngineDeadlineError(error)) return undefined; // stopped between the list and the reading
      options.logger.warn(
        { err: error, container: summary.Id, name: nameOf(summary) },
        'the Docker Engine does not answer about a container; the admin panel lists the others without it',
      );
      return { id: summary.Id, name: nameOf(summary), sentence: error.message };
    }
    const current = toCadvisorStats(raw);
    const pre =
      !known && raw.precpu_stats?.cpu_usage?.total_usage && raw.preread && !raw.preread.startsWith('0001')
        ? { ...current, timestamp: raw.preread, cpu: cpuUsage(raw.precpu_stats) }
        : undefined;
    const name = nameOf(summary);
    const limit = raw.memory_stats?.limit ?? 0;
    return {
      name: `/docker/${summary.Id}`,
      id: summary.Id,
      aliases: [name, summary.Id],
      namespace: 'docker',
      labels: summary.Labels ?? {},
      spec: {
        creation_time: new Date(summary.Created * 1000).toISOString(),
        image: summary.Image,
        labels: summary.Labels ?? {},
        has_cpu: true,
        has_memory: true,
        has_network: true,
        memory: { limit },
      },
      stats: withPrevious(summary.Id, current, pre),
    };
  }

  return {
    source: 'docker',
    async machine() {
      let info: { NCPU?: number; MemTotal?: number; Name?: string; ID?: string };
      try {
        info = await docker.info();
      } catch (error) {
        throw dockerUnreachable(error);
      }
      const fallbackId = info.ID ?? 'unknown';
      return {
        timestamp: new Date().toISOString(),
        num_cores: info.NCPU ?? os.cpus().length,
        num_physical_cores: info.NCPU ?? os.cpus().length,
        num_sockets: 1,
        cpu_frequency_khz: (os.cpus()[0]?.speed ?? 0) * 1000,
        memory_capacity: info.MemTotal ?? os.totalmem(),
        machine_id: (await readFirstLine('/etc/machine-id')) ?? fallbackId,
        system_uuid: (await readFirstLine('/sys/class/dmi/id/product_uuid')) ?? fallbackId,
        boot_id: (await readFirstLine('/proc/sys/kernel/random/boot_id')) ?? fallbackId,
        boot_time: Math.floor(Date.now() / 1000 - os.uptime()),
        hostname: info.Name ?? os.hostname(),
      } satisfies CadvisorMachineInfo;
    },
    async containers() {
      let running: Docker.ContainerInfo[];
      try {
        running = await docker.listContainers();
      } catch (error) {
        throw dockerUnreachable(error);
      }
      const read = await Promise.all(running.map(containerInfo));
      const infos = read.filter(
        (info): info is CadvisorContainerInfo => info !== undefined && 'stats' in info,
      );
      const unanswered = read.filter(
        (info): info is UnansweredContainer => info !== undefined && 'sentence' in info,
      );
      const alive = new Set(running.map((c) => c.Id));
      for (const id of previous.keys()) if (id !== '/' && !alive.has(id)) previous.delete(id);
      return {
        name: '/',
        aliases: [],
        namespace: '',
        spec: { has_cpu: true, has_memory: true, has_network: false, memory: { limit: os.totalmem() } },
        stats: withPrevious('/', hostSample()),
        subcontainers: infos,
        ...(unanswered.length > 0 ? { unanswered } : {}),
      };
    },
  };
}
