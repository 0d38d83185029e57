import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { CHANNELS, LABELS } from '../infra/docker/conventions.js';
import { stillUnanswered } from '../infra/docker/unansweredContainers.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import { scheduledTask } from '../scheduling/scheduledTask.js';
import { watchContainerEvents } from '../workspaces/containerEvents.js';
import { engineKey, serviceName } from '../workspaces/workspaceDocker.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { followContainerLogs } from './dockerLogLines.js';
import { inotifyWarning } from './inotifyLimit.js';
import { type LogStore, MAX_LINE_LENGTH, type ServiceLogLine, toServiceLogMessage } from './logStore.js';
import { storedMark } from './logStream.js';
import type { SecretMasks } from './secretMasking.js';

/** Lines containing these words become the workspace's "Latest Error". */
export const ERROR_PATTERN = /error|exception|fatal|panic/i;

const FLUSH_DELAY_MS = 40;
/** How long a container's workspace (owner and name, for storing its lines) is remembered. */
const WORKSPACE_CACHE_MS = 60_000;
const FLUSH_SIZE = 500;
/** Batches published but not yet stored before a flush waits for the database. */
const MAX_STORES_QUEUED = 4;
/** If the database falls this far behind, the oldest unsaved lines are dropped rather than memory. */
const MAX_PENDING = 50_000;

interface Pending {
  workspaceId: string;
  row: ServiceLogLine;
}

type WorkspaceRef = { id: string; userId: string; name: string };

/**
 * Follows the output of every workspace container of one Docker Engine: one log stream per container,
 * however many people watch. Lines are published for the live viewers in batches, then stored.
 */
export function createLogCollector(deps: {
  docker: Docker;
  workspaces: WorkspacesRepository;
  logStore: LogStore;
  pubsub: PubSub;
  masks: SecretMasks;
  logger: Logger;
}) {
  const { docker, logger } = deps;
  const followers = new Map<string, () => void>();
  const attaching = new Set<string>();
  const workspaceCache = new Map<string, { ref: WorkspaceRef | undefined; at: number }>();
  let pending: Pending[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  /** The INSERTs of published batches, one after another in publishing order. */
  let storing: Promise<void> = Promise.resolve();
  let storesQueued = 0;
  const chunkIds = deps.logStore.chunkIds();
  let stopEvents: (() => void) | undefined;
  let running = false;
  /** Said once per start: the engine's machine allows too few inotify instances (inotifyLimit.ts). */
  let inotifyWarned = false;
  let dropped = 0;

  async function workspaceFor(id: string): Promise<WorkspaceRef | undefined> {
    const cached = workspaceCache.get(id);
    if (cached && Date.now() - cached.at < WORKSPACE_CACHE_MS) return cached.ref;
    const row = await deps.workspaces.findById(id);
    const ref = row ? { id: row.id, userId: row.userId, name: row.name } : undefined;
    workspaceCache.set(id, { ref, at: Date.now() });
    return ref;
  }

  /**
   * Publishes a batch to the live viewers at once, then stores it behind the batches before it: delivery does
   * not wait on the database. After each INSERT a `stored` mark goes out, so a viewer who joined while lines it
   * never saw live were being stored reads them (logStream.ts); ids follow publishing order per workspace.
   */
  async function flush(): Promise<void> {
    flushTimer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    // Secrets are masked before a line is kept, so every reader (API, streams, alerts, emails) gets it masked.
    const rows = await Promise.all(
      batch.map(async ({ row }) => ({
        ...row,
        line: (await deps.masks.forWorkspace(row.userId, row.workspaceName))(row.line),
      })),
    );
    const workspaceIds = new Map(
      batch.map(({ workspaceId, row }) => [`${row.userId}/${row.workspaceName}`, workspaceId]),
    );
    const prepared = await deps.logStore.prepareBatch(rows, chunkIds);
    const through = new Map<string, number>();
    const errors = new Map<string, { line: string; ts: Date }>();
    // In id order (not the batch's): viewers skip a live line whose id is below the last they saw.
    await Promise.all(
      prepared.lines.map((line) => {
        const workspaceId = workspaceIds.get(`${line.userId}/${line.workspaceName}`)!;
        through.set(workspaceId, line.id);
        // The latest by time: id order groups a batch by service and container.
        const latest = errors.get(workspaceId);
        if (ERROR_PATTERN.test(line.line) && (!latest || line.ts >= latest.ts))
          errors.set(workspaceId, { line: line.line.slice(0, 1000), ts: line.ts });
        return deps.pubsub.publish(CHANNELS.serviceLogs(workspaceId), toServiceLogMessage(line));
      }),
    );
    // Enough stores queued: wait, so a slow database holds back the pending lines (bounded) and not memory.
    if (storesQueued >= MAX_STORES_QUEUED) await storing;
    storesQueued++;
    storing = storing.then(async () => {
      try {
        await prepared.store();
        for (const [workspaceId, error] of errors)
          await deps.workspaces.recordError(workspaceId, error.line, error.ts);
      } catch (error) {
        logger.error({ err: error }, 'storing log lines failed');
      } finally {
        storesQueued--;
        // Also after a failure: a viewer waiting for its catch-up must not wait for good.
        await Promise.all(
          [...through].map(([workspaceId, id]) =>
            deps.pubsub.publish(CHANNELS.serviceLogs(workspaceId), storedMark(id)),
          ),
        ).catch((error) => logger.error({ err: error }, 'publishing stored log marks failed'));
      }
    });
  }

  function scheduleFlush() {
    const run = () => {
      flushing = flushing
        .then(flush)
        .catch((error) => logger.error({ err: error }, 'storing log lines failed'));
    };
    if (pending.length >= FLUSH_SIZE) {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = undefined;
      run();
    } else if (!flushTimer) {
      flushTimer = setTimeout(run, FLUSH_DELAY_MS);
    }
  }

  function enqueue(entry: Pending) {
    pending.push(entry);
    if (pending.length > MAX_PENDING) {
      pending.splice(0, pending.length - MAX_PENDING);
      if (dropped++ % 1000 === 0)
        logger.warn('log lines arrive faster than they can be stored; dropping the oldest');
    }
    scheduleFlush();
  }

  async function attach(containerId: string): Promise<void> {
    if (!running || followers.has(containerId) || attaching.has(containerId)) return;
    const container = docker.getContainer(containerId);
    // One the engine did not answer about is left for a later resync (it is asked again in the background).
    if (stillUnanswered(engineKey(docker), containerId, () => container.inspect())) return;
    attaching.add(containerId);
    try {
      const info = await container.inspect();
      const labels = info.Config.Labels ?? {};
      const workspaceId = labels[LABELS.workspaceId];
      // A container that already exited is read too (follow ends at once): a fast crash keeps its last words.
      if (!workspaceId) return;
      const workspace = await workspaceFor(workspaceId);
      if (!workspace || !running) return;
      const service = serviceName({ Labels: labels, Names: [info.Name] });
      const shortId = info.Id.slice(0, 12);
      const last = await deps.logStore.lastTimestamp(workspace.userId, workspace.name, shortId);
      const stream = (await container.logs({
        follow: true,
        stdout: true,
        stderr: true,
        timestamps: true,
        since: last ? Math.floor(last.getTime() / 1000) : 0,
      })) as unknown as Readable;
      if (!running) {
        stream.destroy();
        return;
      }
      const stop = followContainerLogs(
        docker,
        stream,
        Boolean(info.Config.Tty),
        ({ ts, source, line }) => {
          // `since` has one-second precision: skip what the previous follower already stored.
          if (last && ts.getTime() <= last.getTime()) return;
          enqueue({
            workspaceId,
            row: {
              userId: workspace.userId,
              workspaceName: workspace.name,
              service,
              containerId: shortId,
              source,
              ts,
              line: line.slice(0, MAX_LINE_LENGTH),
            },
          });
        },
        () => followers.delete(containerId),
      );
      followers.set(containerId, stop);
      if (!inotifyWarned && engineKey(docker).startsWith('unix:')) {
        const warning = inotifyWarning(followers.size);
        if (warning) {
          inotifyWarned = true;
          logger.warn({ followed: followers.size }, warning);
        }
      }
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) {
        logger.warn({ err: error, containerId }, 'cannot follow container logs');
      }
    } finally {
      attaching.delete(containerId);
    }
  }

  async function attachAll(): Promise<void> {
    // Expired entries go, so a deleted workspace (or one that moved engine) does not stay for good.
    const now = Date.now();
    for (const [id, cached] of workspaceCache)
      if (now - cached.at >= WORKSPACE_CACHE_MS) workspaceCache.delete(id);
    const containers = await docker.listContainers({ filters: { label: [LABELS.workspaceId] } });
    await Promise.all(containers.map((container) => attach(container.Id)));
  }

  /** Containers started while the event stream was down are found by listing them again. */
  const resync = scheduledTask('log-resync', { logger, task: attachAll });

  return {
    /** How many containers are followed right now (one stream each). */
    get followed() {
      return followers.size;
    },
    async start() {
      if (running) return;
      running = true;
      stopEvents = watchContainerEvents(
        docker,
        ['start'],
        (event) => {
          if (event.labels[LABELS.workspaceId]) void attach(event.containerId);
        },
        logger,
      );
      await resync.start();
    },
    async stop() {
      running = false;
      stopEvents?.();
      // Not awaited, as before: a listing in flight ends on its own (its attaches check `running`).
      void resync.stop();
      for (const stop of followers.values()) stop();
      followers.clear();
      workspaceCache.clear();
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = undefined;
      await flushing;
      await flush().catch((error) => logger.error({ err: error }, 'storing log lines failed'));
      await storing;
      // Another replica's collector may take newer ids while this one is stopped.
      chunkIds.reset();
    },
    /** Stores what is buffered now (tests and shutdown). */
    async drain() {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = undefined;
      flushing = flushing.then(flush);
      await flushing;
      await storing;
    },
  };
}

export type LogCollector = ReturnType<typeof createLogCollector>;
