import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { LABELS } from '../infra/docker/conventions.js';
import {
  type ContainerSummary,
  type DockerFor,
  engineKey,
  isSystemContainer,
} from '../workspaces/workspaceDocker.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { MetricsRepository } from './metricsRepository.js';
import type { SystemHealthService } from './systemHealthService.js';

/** Samples are kept a little over the chart's hour. */
const KEEP_HOURS = 2;
/** Workspaces read at once: each `stats` call waits about a second for the engine's CPU window. */
const CONCURRENCY = 8;

interface RunningOnEngine {
  system: boolean;
  services: ContainerSummary[];
}

/** One listing of the engine's running workspace containers, grouped by workspace. */
async function runningByWorkspace(docker: Docker): Promise<Map<string, RunningOnEngine>> {
  const containers = await docker.listContainers({ filters: { label: [LABELS.workspaceId] } });
  const byWorkspace = new Map<string, RunningOnEngine>();
  for (const container of containers) {
    const workspaceId = container.Labels[LABELS.workspaceId];
    if (!workspaceId || container.State !== 'running') continue;
    const entry = byWorkspace.get(workspaceId) ?? { system: false, services: [] };
    byWorkspace.set(workspaceId, entry);
    if (isSystemContainer(container)) entry.system = true;
    else entry.services.push(container);
  }
  return byWorkspace;
}

/**
 * One CPU/memory sample of every live workspace whose `system` container runs; the platform runs it as
 * `metric-sampler` (the schedule catalogue), in one replica so N replicas do not write N samples a minute.
 * One container listing per engine finds them all (most workspaces have no `system` container).
 */
export function createMetricSampler(deps: {
  workspaces: WorkspacesRepository;
  systemHealth: SystemHealthService;
  metrics: MetricsRepository;
  dockerFor: DockerFor;
  logger: Logger;
}) {
  async function sampleEngine(docker: Docker, rows: WorkspaceRow[]) {
    const running = await runningByWorkspace(docker);
    const due = rows.flatMap((row) => {
      const entry = running.get(row.id);
      return entry?.system ? [{ row, services: entry.services }] : [];
    });
    for (let start = 0; start < due.length; start += CONCURRENCY) {
      await Promise.all(
        due
          .slice(start, start + CONCURRENCY)
          .map(({ row, services }) =>
            deps.systemHealth
              .sample(row, docker, services)
              .catch((error) => deps.logger.debug({ err: error, workspace: row.id }, 'metric sample failed')),
          ),
      );
    }
  }

  async function sampleAll() {
    const engines = new Map<string, { docker: Docker; rows: WorkspaceRow[] }>();
    for (const row of await deps.workspaces.listWatched()) {
      if (!row.vmId) continue;
      const docker = deps.dockerFor(row);
      const key = engineKey(docker);
      const engine = engines.get(key);
      if (engine) engine.rows.push(row);
      else engines.set(key, { docker, rows: [row] });
    }
    for (const [key, { docker, rows }] of engines) {
      await sampleEngine(docker, rows).catch((error) =>
        deps.logger.warn({ err: error, engine: key }, 'metric sampling of an engine failed'),
      );
    }
    await deps.metrics.pruneOlderThan(KEEP_HOURS);
  }
  return { sampleAll };
}

export type MetricSampler = ReturnType<typeof createMetricSampler>;
