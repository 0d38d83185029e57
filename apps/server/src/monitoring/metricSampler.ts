import type { Logger } from 'pino';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { MetricsRepository } from './metricsRepository.js';
import type { SystemHealthService } from './systemHealthService.js';

/** Samples are kept a little over the chart's hour. */
const KEEP_HOURS = 2;

/**
 * One CPU/memory sample of every live workspace whose `system` container runs; the platform runs it as
 * `metric-sampler` (the schedule catalogue), in one replica so N replicas do not write N samples a minute.
 */
export function createMetricSampler(deps: {
  workspaces: WorkspacesRepository;
  systemHealth: SystemHealthService;
  metrics: MetricsRepository;
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
  return { sampleAll };
}

export type MetricSampler = ReturnType<typeof createMetricSampler>;
