import type { Logger } from 'pino';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { MetricsRepository } from './metricsRepository.js';
import type { SystemHealthService } from './systemHealthService.js';

/** Samples are kept a little over the chart's hour. */
const KEEP_HOURS = 2;

/** At once and then once per interval, one CPU/memory sample of every live workspace whose `system` container runs. */
export function createMetricSampler(deps: {
  workspaces: WorkspacesRepository;
  systemHealth: SystemHealthService;
  metrics: MetricsRepository;
  kv: KeyValueStore;
  intervalMs: number;
  logger: Logger;
}) {
  async function sampleAll() {
    for (const row of await deps.workspaces.listWatched()) {
      await deps.systemHealth
        .sample(row)
        .catch((error) => deps.logger.debug({ err: error, workspace: row.id }, 'metric sample failed'));
    }
    await deps.metrics.pruneOlderThan(KEEP_HOURS);
  }

  // Samples in one replica only (the lease holder), so N replicas do not write N samples a minute.
  const replica = scheduledWhileLeaseHeld('metric-sampler', {
    kv: deps.kv,
    logger: deps.logger,
    intervalMs: deps.intervalMs,
    task: sampleAll,
  });
  return { sampleAll, start: replica.start, stop: replica.stop };
}

export type MetricSampler = ReturnType<typeof createMetricSampler>;
