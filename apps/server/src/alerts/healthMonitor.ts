import type { Logger } from 'pino';
import { LABELS } from '../infra/docker/conventions.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { whileLeaseHeld } from '../monitoring/leaseLock.js';
import { watchContainerEvents } from '../workspaces/containerEvents.js';
import {
  type ContainerSummary,
  type DockerFor,
  engineKey,
  listServiceContainers,
} from '../workspaces/workspaceDocker.js';
import {
  WATCHED_STATUSES,
  type WorkspaceRow,
  type WorkspacesRepository,
} from '../workspaces/workspacesRepository.js';
import type { AlertsService } from './alertsService.js';
import { findFailures, RESTART_WINDOW_MS } from './healthChecks.js';

/** After a `die` event, look again this soon (a restart policy may already have brought it back). */
const EVENT_CHECK_DELAY_MS = 1500;
const PARALLEL_CHECKS = 8;

/**
 * Checks every live workspace on an interval (and at once when the engine reports a crash), raising an
 * alert per failure and resolving it on recovery. One replica runs it, chosen by a lease.
 */
export function createHealthMonitor(deps: {
  workspaces: WorkspacesRepository;
  alerts: AlertsService;
  dockerFor: DockerFor;
  kv: KeyValueStore;
  intervalMs: number;
  logger: Logger;
  leaseTtlMs?: number;
}) {
  const { logger } = deps;
  /** Per container: engine restart counts seen and `die` events, within the restart window. */
  const restartCounts = new Map<string, { at: number; count: number }[]>();
  const dies = new Map<string, number[]>();
  const inFlight = new Map<string, Promise<void>>();
  const eventChecks = new Map<string, NodeJS.Timeout>();
  const engines = new Map<string, () => void>();
  let timer: NodeJS.Timeout | undefined;
  let active = false;

  function restartsInWindow(container: ContainerSummary, count: number): number {
    const now = Date.now();
    const seen = (restartCounts.get(container.Id) ?? []).filter(
      (entry) => now - entry.at < RESTART_WINDOW_MS,
    );
    seen.push({ at: now, count });
    restartCounts.set(container.Id, seen);
    const counted = count - (seen[0]?.count ?? count);
    const died = (dies.get(container.Id) ?? []).filter((at) => now - at < RESTART_WINDOW_MS);
    dies.set(container.Id, died);
    return Math.max(counted, died.length);
  }

  async function checkWorkspace(row: WorkspaceRow): Promise<void> {
    if (!WATCHED_STATUSES.includes(row.status) || (await deps.workspaces.deploymentInProgress(row))) return;
    const docker = deps.dockerFor(row);
    let containers: ContainerSummary[];
    try {
      containers = await listServiceContainers(docker, row.id);
    } catch (error) {
      logger.warn({ err: error, workspace: row.id }, 'cannot reach the workspace VM');
      return;
    }
    const failures = await findFailures(docker, containers, row.serviceUrls, restartsInWindow);
    const open = await deps.alerts.activeFingerprints(row.id);
    for (const [fingerprint, failure] of failures) {
      if (!open.has(fingerprint)) await deps.alerts.raise(row, failure);
    }
    for (const fingerprint of open) {
      if (!failures.has(fingerprint)) await deps.alerts.recover(row, fingerprint);
    }
  }

  /** One check per workspace at a time; a second request while one runs waits for it. */
  function check(row: WorkspaceRow): Promise<void> {
    const running = inFlight.get(row.id);
    if (running) return running;
    const next = checkWorkspace(row)
      .catch((error) => logger.error({ err: error, workspace: row.id }, 'health check failed'))
      .finally(() => inFlight.delete(row.id));
    inFlight.set(row.id, next);
    return next;
  }

  async function checkAll(): Promise<void> {
    const rows = await deps.workspaces.listWatched();
    for (const row of rows) watchEngine(row);
    for (let index = 0; index < rows.length; index += PARALLEL_CHECKS) {
      await Promise.all(rows.slice(index, index + PARALLEL_CHECKS).map(check));
    }
  }

  function watchEngine(row: WorkspaceRow) {
    const docker = deps.dockerFor(row);
    const key = engineKey(docker);
    if (engines.has(key)) return;
    const stop = watchContainerEvents(
      docker,
      ['die', 'oom'],
      (event) => {
        const workspaceId = event.labels[LABELS.workspaceId];
        if (!workspaceId || event.labels[LABELS.system] === 'true') return;
        if (event.action === 'die')
          dies.set(event.containerId, [...(dies.get(event.containerId) ?? []), Date.now()]);
        if (eventChecks.has(workspaceId)) return;
        const pending = setTimeout(async () => {
          eventChecks.delete(workspaceId);
          const fresh = await deps.workspaces.findById(workspaceId).catch(() => undefined);
          if (fresh && active) await check(fresh);
        }, EVENT_CHECK_DELAY_MS);
        eventChecks.set(workspaceId, pending);
      },
      logger,
    );
    engines.set(key, stop);
  }

  function begin() {
    active = true;
    void checkAll().catch((error) => logger.warn({ err: error }, 'health checks failed'));
    timer = setInterval(() => {
      void checkAll().catch((error) => logger.warn({ err: error }, 'health checks failed'));
    }, deps.intervalMs);
    timer.unref();
  }

  async function end() {
    active = false;
    if (timer) clearInterval(timer);
    timer = undefined;
    for (const stop of engines.values()) stop();
    engines.clear();
    for (const pending of eventChecks.values()) clearTimeout(pending);
    eventChecks.clear();
    await Promise.all(inFlight.values());
  }

  const replica = whileLeaseHeld({
    kv: deps.kv,
    name: 'health-monitor',
    ...(deps.leaseTtlMs ? { ttlMs: deps.leaseTtlMs } : {}),
    logger,
    onAcquired: begin,
    onLost: end,
  });
  return { checkAll, check, start: replica.start, stop: replica.stop };
}

export type HealthMonitor = ReturnType<typeof createHealthMonitor>;
