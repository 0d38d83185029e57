import type { CadvisorContainerInfo, CadvisorContainerStats } from '@slipway/contract';
import { roundPercent } from '../../../lib/units';

/** One container as the System Monitoring tab shows it (spec §3 'Container metrics'). */
export interface ContainerMetrics {
  name: string;
  id: string;
  shortId: string;
  image: string;
  /** Slipway's workspace, Compose service and owner of the container; null for others. */
  workspace: string | null;
  service: string | null;
  owner: string | null;
  cpu: { usageRate: number; usagePercent: number };
  memory: {
    workingSet: number;
    cache: number;
    rss: number;
    limit: number;
    usageRate: number;
    usagePercent: number;
  };
  network: { rxBytes: number; txBytes: number };
  timestamp: string;
}

/** Above this a memory limit means "no limit" (cgroups report ~2^63). */
export const UNLIMITED_MEMORY = 1e15;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Spec §5 filtering: skip invalid data, the root container, system-slice containers that are not
 * docker, and user.slice, init.scope and azure.slice; keep docker containers; drop those without stats.
 */
export function shouldShowContainer(container: unknown): container is CadvisorContainerInfo {
  if (!isObject(container) || typeof container.name !== 'string' || container.name === '') return false;
  const name = container.name;
  if (name === '/') return false;
  const docker = name.includes('docker') || container.namespace === 'docker';
  if (name.startsWith('/system.slice') && !docker) return false;
  if (!docker && ['user.slice', 'init.scope', 'azure.slice'].some((slice) => name.includes(slice)))
    return false;
  return Array.isArray(container.stats) && container.stats.length > 0;
}

/** CPU use of the whole machine between the last two samples, as a rate clamped to 0..1. */
export function cpuUsageRate(stats: CadvisorContainerStats[], cores: number): number {
  const last = stats[stats.length - 1];
  const before = stats[stats.length - 2];
  if (!last || !before) return 0;
  const elapsedNs = (Date.parse(last.timestamp) - Date.parse(before.timestamp)) * 1e6;
  const usedNs = num(last.cpu?.usage?.total) - num(before.cpu?.usage?.total);
  if (!(elapsedNs > 0)) return 0;
  const rate = usedNs / (elapsedNs * Math.max(1, cores));
  return Math.min(1, Math.max(0, Number.isFinite(rate) ? rate : 0));
}

function displayName(container: CadvisorContainerInfo): string {
  const alias = container.aliases?.find((a) => a && !/^[0-9a-f]{64}$/.test(a));
  return alias ?? container.name.split('/').filter(Boolean).pop() ?? container.name;
}

function containerId(container: CadvisorContainerInfo): string {
  return container.id ?? container.name.split('/').filter(Boolean).pop() ?? container.name;
}

export function toContainerMetrics(container: CadvisorContainerInfo, cores: number): ContainerMetrics | null {
  const stats = container.stats;
  const last = stats[stats.length - 1];
  if (!last) return null;
  const rawLimit = num(container.spec?.memory?.limit);
  const unlimited = rawLimit <= 0 || rawLimit > UNLIMITED_MEMORY;
  const limit = unlimited ? 0 : rawLimit;
  const workingSet = num(last.memory?.working_set);
  const memoryRate = unlimited ? 0 : Math.min(1, workingSet / limit);
  const cpuRate = cpuUsageRate(stats, cores);
  const id = containerId(container);
  return {
    name: displayName(container),
    id,
    shortId: id.slice(0, 12),
    image: container.spec?.image ?? '',
    workspace: container.slipway?.workspace ?? null,
    service: container.slipway?.service ?? null,
    owner: container.slipway?.owner ?? null,
    cpu: { usageRate: cpuRate, usagePercent: roundPercent(cpuRate * 100) },
    memory: {
      workingSet,
      cache: num(last.memory?.cache),
      rss: num(last.memory?.rss),
      limit,
      usageRate: memoryRate,
      usagePercent: roundPercent(memoryRate * 100),
    },
    network: { rxBytes: num(last.network?.rx_bytes), txBytes: num(last.network?.tx_bytes) },
    timestamp: last.timestamp,
  };
}

/**
 * The containers in a `/containers` answer: a root container with its subcontainers (cAdvisor's v1.3
 * shape), a list, or a map of name to container (cAdvisor's docker endpoint). Null when it is none.
 */
export function containerCandidates(data: unknown): unknown[] | null {
  if (Array.isArray(data)) return data;
  if (!isObject(data)) return null;
  if (typeof data.name === 'string') {
    return [data, ...(Array.isArray(data.subcontainers) ? data.subcontainers : [])];
  }
  return Object.values(data);
}

export function buildContainerMetrics(candidates: unknown[], cores: number): ContainerMetrics[] {
  return candidates
    .filter(shouldShowContainer)
    .map((container) => toContainerMetrics(container, cores))
    .filter((metrics): metrics is ContainerMetrics => metrics !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}
