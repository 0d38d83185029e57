import type { ContainerHealth } from '@slipway/contract';
import { round1 } from './procReadings.js';

/** The subset of the engine's stats document we read (GET /containers/{id}/stats?stream=false). */
export interface EngineStats {
  cpu_stats?: {
    cpu_usage?: { total_usage?: number; percpu_usage?: number[] };
    system_cpu_usage?: number;
    online_cpus?: number;
  };
  precpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number };
  memory_stats?: { usage?: number; limit?: number; stats?: Record<string, number> };
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
}

/** Computed the way `docker stats` computes it, so the two agree. */
export function containerHealth(name: string, image: string, stats: EngineStats): ContainerHealth {
  const cpu = stats.cpu_stats;
  const pre = stats.precpu_stats;
  const cpuDelta = (cpu?.cpu_usage?.total_usage ?? 0) - (pre?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (cpu?.system_cpu_usage ?? 0) - (pre?.system_cpu_usage ?? 0);
  const cpus = cpu?.online_cpus || cpu?.cpu_usage?.percpu_usage?.length || 1;
  const cpuPercent = cpuDelta > 0 && systemDelta > 0 ? (cpuDelta / systemDelta) * cpus * 100 : 0;

  const memory = stats.memory_stats;
  // cgroup v2 reports inactive_file, v1 total_inactive_file; docker stats subtracts it as page cache.
  const cache = memory?.stats?.inactive_file ?? memory?.stats?.total_inactive_file ?? 0;
  const usage = Math.max(0, (memory?.usage ?? 0) - cache);
  const limit = memory?.limit ?? 0;

  let rx = 0;
  let tx = 0;
  for (const network of Object.values(stats.networks ?? {})) {
    rx += network.rx_bytes ?? 0;
    tx += network.tx_bytes ?? 0;
  }
  return {
    name,
    image,
    cpu_percent: round1(cpuPercent),
    memory_usage: usage,
    // Over 1e15 means "no limit" (the engine's sentinel), shown as 0 like the admin monitoring does.
    memory_limit: limit > 1e15 ? 0 : limit,
    network_rx: rx,
    network_tx: tx,
  };
}
