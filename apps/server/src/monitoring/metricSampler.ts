import type { Logger } from 'pino';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { whileLeaseHeld } from '../scheduling/leaseLock.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { MetricsRepository } from './metricsRepository.js';
import type { SystemHealthService } from './systemHealthService.js';

/** Samples are kept a little over the chart's hour. */
const KEEP_HOURS = 2;

/** Once per interval, one CPU/memory sample of every live workspace whose `system` container runs. */
export function createMetricSampler(deps: {
  workspaces: WorkspacesRepository;
  systemHealth: SystemHealthService;
  metrics: MetricsRepository;
  kv: KeyValueStore;
  intervalMs: number;
  logger: Logger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function sampleAll() {
    for (const row of await deps.workspaces.listWatched()) {
      await deps.systemHealth
        .sample(row)
        .catch((error) => deps.logger.debug({ err: error, workspace: row.id }, 'metric sample failed'));
    }
    await deps.metrics.pruneOlderThan(KEEP_HOURS);
  }

  const begin = () => {
    timer = setInterval(() => {
      running = running.then(sampleAll).catch((error) => deps.logger.warn({ err: error }, 'sampling failed'));
    }, deps.intervalMs);
    timer.unref();
  };
  const end = async () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    await running;
  };

  // Samples in one replica only (the lease holder), so N replicas do not write N samples a minute.
  const replica = whileLeaseHeld({
    kv: deps.kv,
    name: 'metric-sampler',
    logger: deps.logger,
    onAcquired: begin,
    onLost: end,
  });
  return { sampleAll, start: replica.start, stop: replica.stop };
}

export type MetricSampler = ReturnType<typeof createMetricSampler>;
