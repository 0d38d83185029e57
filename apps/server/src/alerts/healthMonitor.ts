import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { LABELS } from '../infra/docker/conventions.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { whileLeaseHeld } from '../scheduling/leaseLock.js';
import { scheduledTask } from '../scheduling/scheduledTask.js';
import { type ContainerEvent, watchContainerEvents } from '../workspaces/containerEvents.js';
import {
  baseServiceName,
  type ContainerSummary,
  type DockerFor,
  engineKey,
  listServiceContainers,
  serviceContainersByWorkspace,
} from '../workspaces/workspaceDocker.js';
import {
  WATCHED_STATUSES,
  type WorkspaceRow,
  type WorkspacesRepository,
} from '../workspaces/workspacesRepository.js';
import type { AlertsService } from './alertsService.js';
import { lastLinesOf, readCrash } from './crashReport.js';
import { type ExpectedStops, failuresStoppedOnPurpose } from './expectedStops.js';
import {
  containerName,
  crashedFailure,
  type Failure,
  findFailures,
  healthAlertsOf,
  RESTART_LOOP_COUNT,
  RESTART_WINDOW_MS,
  restartLoopFailure,
  restartLoopFingerprint,
} from './healthChecks.js';
import { createInspectCache } from './inspectCache.js';
import { createOomWatch } from './oomWatch.js';
import { createRestartCount } from './restartCount.js';
import { createUnansweredReads } from './unansweredReads.js';

const PARALLEL_CHECKS = 8;
/** After a start or health event, look this soon (the process needs a moment to listen). */
const EVENT_CHECK_DELAY_MS = 300;
const WATCHED_EVENTS = ['die', 'oom', 'kill', 'start', 'restart', 'health_status'];

/**
 * Watches every live workspace. The engine's events drive it: a `die` raises a "crashed" alert at once
 * with the exit code, the OOM flag and the last lines (a SIGKILL nobody asked for waits up to LATE_OOM_MS for
 * its `oom` event); `start` and health events re-check the workspace,
 * resolving its alerts once it runs and answers. A slower poll is the safety net for missed events
 * (the event stream reconnects from the last event's time, but an engine restart loses some) and for
 * services that run but do not answer ("unreachable"). One replica runs it, chosen by a lease.
 */
export function createHealthMonitor(deps: {
  workspaces: WorkspacesRepository;
  /**
   * Which workspaces have a deployment queued or running (one query): their containers are being replaced on
   * purpose.
   */
  deploymentsInProgress: () => Promise<(row: WorkspaceRow) => boolean>;
  alerts: AlertsService;
  /** What Slipway stops on purpose (a deletion, a stop, a restore): no alert for those stops. */
  expectedStops: ExpectedStops;
  dockerFor: DockerFor;
  kv: KeyValueStore;
  intervalMs: number;
  logger: Logger;
  leaseTtlMs?: number;
}) {
  const { logger } = deps;
  /** Per container: its deaths within the restart window, and whether they were OOM kills. */
  const restarts = createRestartCount();
  const oomWatch = createOomWatch();
  /** Events already handled (a reconnect `since` the last event replays that second). */
  const seenEvents = new Map<string, number>();
  /** Per workspace: the chain of its checks and crash reports, one at a time, in order. */
  const chains = new Map<string, Promise<void>>();
  const queuedChecks = new Map<string, Promise<void>>();
  const eventChecks = new Map<string, NodeJS.Timeout>();
  /** Workspaces with an open crash: checked every second (`recovery-checks` in the schedule catalogue) until it is over, so its alert resolves soon after it answers. */
  const recovering = new Set<string>();
  const engines = new Map<string, () => void>();
  /** The safety poll's inspections of running containers, forgotten on any event about them. */
  const inspections = createInspectCache();
  let active = false;

  const restartsInWindow = (container: ContainerSummary, count: number) =>
    restarts.inWindow(container.Id, count);
  const unanswered = createUnansweredReads(logger);
  const announcedFailures = (
    workspaceId: string,
    containers: ContainerSummary[],
    failures: Map<string, Failure>,
  ) => failuresStoppedOnPurpose(deps.expectedStops, workspaceId, containers, failures);

  function exclusive(workspaceId: string, task: () => Promise<void>): Promise<void> {
    const next = (chains.get(workspaceId) ?? Promise.resolve())
      .then(task)
      .catch((error) => logger.error({ err: error, workspace: workspaceId }, 'health check failed'))
      .finally(() => {
        if (chains.get(workspaceId) === next) chains.delete(workspaceId);
      });
    chains.set(workspaceId, next);
    return next;
  }

  /** Live and not being deployed (a redeploy stops containers on purpose). */
  const watched = async (row: WorkspaceRow): Promise<boolean> =>
    WATCHED_STATUSES.includes(row.status) && !(await deps.deploymentsInProgress())(row);

  async function checkWorkspace(row: WorkspaceRow): Promise<void> {
    if (!(await watched(row))) return;
    const docker = deps.dockerFor(row);
    let containers: ContainerSummary[];
    try {
      containers = await listServiceContainers(docker, row.id);
    } catch (error) {
      logger.warn({ err: error, workspace: row.id }, 'cannot reach the workspace VM');
      return;
    }
    const open = healthAlertsOf(await deps.alerts.activeFingerprints(row.id));
    const failures = await findFailures(
      async (container) => oomWatch.withOomFlag(await unanswered.inspect(docker, container)),
      containers,
      row.serviceUrls,
      restartsInWindow,
      open,
    );
    const announced = await announcedFailures(row.id, containers, failures);
    for (const [fingerprint, failure] of failures) {
      if (open.has(fingerprint) || announced.has(fingerprint)) continue;
      // Found dead before its death event was handled: the notification still carries its last lines.
      const name = fingerprint.slice(fingerprint.indexOf(':') + 1);
      const dead =
        failure.alertType === 'service_unreachable'
          ? undefined
          : containers.find((c) => containerName(c) === name);
      const lastLines = dead ? await lastLinesOf(docker, dead.Id).catch(() => undefined) : undefined;
      await deps.alerts.raise(row, failure, lastLines ? { lastLines } : {});
    }
    for (const fingerprint of open) {
      if (!failures.has(fingerprint)) await deps.alerts.recover(row, fingerprint);
    }
    markRecovering(row.id, failures, announced);
  }

  /** A workspace with a crash open is checked every second until it is over. */
  function markRecovering(
    workspaceId: string,
    failures: Map<string, Failure>,
    announced: ReadonlySet<string> = new Set(),
  ) {
    const crashed = [...failures].some(
      ([fingerprint, failure]) => failure.alertType !== 'service_unreachable' && !announced.has(fingerprint),
    );
    if (crashed) recovering.add(workspaceId);
    else recovering.delete(workspaceId);
  }

  /** One check per workspace queued at a time; asking again while one waits joins it. */
  function check(row: WorkspaceRow): Promise<void> {
    const queued = queuedChecks.get(row.id);
    if (queued) return queued;
    const next = exclusive(row.id, async () => {
      queuedChecks.delete(row.id);
      // The row may be stale (a redeploy since): read it again.
      await checkWorkspace((await deps.workspaces.findById(row.id)) ?? row);
    });
    queuedChecks.set(row.id, next);
    return next;
  }

  /**
   * The safety poll over every live workspace, read in batches: one query for the deployments in progress, one
   * for the open alerts, one container list per engine. Only a workspace whose state changed (a failure to
   * raise or one to resolve) is read again on its own (check) before anything is acted on, so a quiet fleet
   * costs a few calls a pass, plus each container's inspect and each URL's probe: the checks themselves.
   */
  async function checkAll(): Promise<void> {
    const rows = await deps.workspaces.listWatched();
    for (const row of rows) watchEngine(row);
    const [deploying, openAlerts] = await Promise.all([
      deps.deploymentsInProgress(),
      deps.alerts.allActiveFingerprints(),
    ]);
    const engineLists = new Map<string, Promise<Map<string, ContainerSummary[]> | undefined>>();
    const containersOf = (docker: Docker) => {
      const key = engineKey(docker);
      if (!engineLists.has(key)) {
        engineLists.set(
          key,
          serviceContainersByWorkspace(docker).catch((error: unknown) => {
            logger.warn({ err: error, engine: key }, 'cannot reach a VM of live workspaces');
            return undefined;
          }),
        );
      }
      return engineLists.get(key)!;
    };
    const quiet = rows.filter((row) => !deploying(row));
    for (let index = 0; index < quiet.length; index += PARALLEL_CHECKS) {
      await Promise.all(
        quiet.slice(index, index + PARALLEL_CHECKS).map(async (row) => {
          const docker = deps.dockerFor(row);
          const byWorkspace = await containersOf(docker);
          if (!byWorkspace) return;
          const open = healthAlertsOf(openAlerts.get(row.id));
          const failures = await findFailures(
            async (container) =>
              oomWatch.withOomFlag(
                await unanswered.read(docker, container, () => inspections.inspect(docker, container)),
              ),
            byWorkspace.get(row.id) ?? [],
            row.serviceUrls,
            restartsInWindow,
            open,
          );
          const changed =
            [...failures.keys()].some((fingerprint) => !open.has(fingerprint)) ||
            [...open].some((fingerprint) => !failures.has(fingerprint));
          if (changed) await check(row);
          else markRecovering(row.id, failures);
        }),
      );
    }
  }

  /**
   * A container of the workspace died. A death Slipway announced (a deletion, a stop, a restore) is neither a crash
   * nor a restart; any other is counted and reported.
   */
  async function onDeath(workspaceId: string, event: ContainerEvent): Promise<void> {
    const service = baseServiceName({
      Labels: event.labels,
      Names: event.labels.name ? [event.labels.name] : [],
    });
    const reason = await deps.expectedStops.explainsDeath(workspaceId, service, event.time);
    if (reason) {
      logger.debug(
        { workspace: workspaceId, container: event.containerId, reason },
        'a stop Slipway announced',
      );
      return;
    }
    await reportCrash(workspaceId, event, restarts.died(event.containerId, event.time));
  }

  /** A container of the workspace died: alert now, with what the engine says about the death. */
  async function reportCrash(workspaceId: string, event: ContainerEvent, deaths: number): Promise<void> {
    const row = await deps.workspaces.findById(workspaceId);
    if (!row || !(await watched(row))) return;
    // The engine is read while a late `oom` event may still come: the wait is the alert's only delay.
    const [oomSeen, read, open] = await Promise.all([
      oomWatch.killedForMemory(event.containerId, {
        at: event.time,
        exitCode: Number(event.labels.exitCode),
        flagged: false,
        heardAt: event.heardAt,
      }),
      readCrash(deps.dockerFor(row), event),
      deps.alerts.activeFingerprints(row.id),
    ]);
    const { lastLines } = read;
    const crash = { ...read.crash, oomKilled: read.crash.oomKilled || oomSeen };
    recovering.add(row.id);
    // An alert still open takes this death as its newest cause (raise merges; only a new alert is sent).
    if (deaths >= RESTART_LOOP_COUNT) {
      await deps.alerts.raise(row, restartLoopFailure(crash, deaths), { lastLines });
      return;
    }
    if (open.has(restartLoopFingerprint(crash.container))) return;
    await deps.alerts.raise(row, crashedFailure(crash), { lastLines });
  }

  function checkSoon(workspaceId: string) {
    if (eventChecks.has(workspaceId)) return;
    const pending = setTimeout(async () => {
      eventChecks.delete(workspaceId);
      const fresh = await deps.workspaces.findById(workspaceId).catch((error) => {
        logger.warn(
          { err: error, workspaceId },
          'reading a workspace to check after a container event failed',
        );
        return undefined;
      });
      if (fresh && active) await check(fresh);
    }, EVENT_CHECK_DELAY_MS);
    eventChecks.set(workspaceId, pending);
  }

  function onEvent(event: ContainerEvent) {
    const workspaceId = event.labels[LABELS.workspaceId];
    if (!workspaceId || event.labels[LABELS.system] === 'true' || !active) return;
    inspections.forget(event.containerId);
    const key = `${event.containerId}:${event.action}:${event.time.getTime()}`;
    if (seenEvents.has(key)) return;
    seenEvents.set(key, Date.now());
    if (event.action === 'oom') {
      oomWatch.sawOom(event.containerId, event.time);
    } else if (event.action === 'kill') {
      oomWatch.sawKill(event.containerId, event.time);
    } else if (event.action === 'die') {
      void exclusive(workspaceId, () => onDeath(workspaceId, event));
    } else {
      checkSoon(workspaceId);
    }
  }

  function watchEngine(vm: Pick<WorkspaceRow, 'vmId'>) {
    const docker = deps.dockerFor(vm);
    const key = engineKey(docker);
    if (engines.has(key)) return;
    // From now: a crash while the stream connects is not lost.
    const since = new Date();
    engines.set(key, watchContainerEvents(docker, WATCHED_EVENTS, onEvent, logger, { since }));
  }

  /**
   * Follows the events of every engine that hosts a workspace, deploying or live (one DISTINCT query), so a
   * workspace's first crash is an event, not the next safety poll's find. Run at the lease's start and on the
   * platform's engine refresh (a workspace's row exists from its first deployment's start).
   */
  async function refreshEngines(): Promise<void> {
    if (!active) return;
    const vms = await deps.workspaces.listEngineVms();
    if (active) for (const vm of vms) watchEngine(vm);
  }

  function forgetOldEvents() {
    const horizon = Date.now() - RESTART_WINDOW_MS;
    for (const [key, at] of seenEvents) if (at < horizon) seenEvents.delete(key);
    oomWatch.forgetBefore(horizon);
    restarts.forgetOld();
    inspections.forgetOld();
  }

  async function checkRecovering() {
    for (const id of recovering) {
      const row = await deps.workspaces.findById(id);
      if (row) void check(row);
      else recovering.delete(id);
    }
  }

  /** The lease holder's timers: the safety poll at once and then every interval, the other two after one. */
  const loops = [
    scheduledTask('health-checks', { logger, intervalMs: deps.intervalMs, task: checkAll }),
    scheduledTask('recovery-checks', { logger, task: checkRecovering }),
    scheduledTask('forget-old-events', {
      logger,
      intervalMs: RESTART_WINDOW_MS,
      task: async () => forgetOldEvents(),
    }),
  ];

  function begin() {
    active = true;
    // Events went unseen while another replica held the lease.
    inspections.clear();
    refreshEngines().catch((error) => logger.error({ err: error }, 'finding the engines to watch failed'));
    for (const loop of loops) void loop.start();
  }

  async function end() {
    active = false;
    // Not awaited, as before: a run in flight ends on its own; the workspaces' chains are awaited below.
    for (const loop of loops) void loop.stop();
    for (const stop of engines.values()) stop();
    engines.clear();
    for (const pending of eventChecks.values()) clearTimeout(pending);
    eventChecks.clear();
    recovering.clear();
    await Promise.all(chains.values());
  }

  const replica = whileLeaseHeld({
    kv: deps.kv,
    name: 'health-monitor',
    ...(deps.leaseTtlMs ? { ttlMs: deps.leaseTtlMs } : {}),
    logger,
    onAcquired: begin,
    onLost: end,
  });
  return {
    checkAll,
    check,
    refreshEngines,
    /** How many engines' events are followed (tests wait for it before crashing a container). */
    get watchedEngines() {
      return engines.size;
    },
    start: replica.start,
    stop: replica.stop,
  };
}

export type HealthMonitor = ReturnType<typeof createHealthMonitor>;
