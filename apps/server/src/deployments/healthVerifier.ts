import type { Duplex } from 'node:stream';
import type { ServiceState } from '@slipway/contract';
import type Docker from 'dockerode';
import { LABELS } from '../infra/docker/conventions.js';
import { listContainersOfProject, tailContainerLogs } from '../infra/docker/projectResources.js';
import { failureMessage, summarizeLog } from './failureReport.js';
import { type ProbeResult, probePort } from './portProbe.js';
import { type Judgement, judgeService, stableIn } from './serviceJudgement.js';
import type { ServiceRole } from './serviceRoles.js';

export interface HealthResult {
  healthy: boolean;
  failedServices: string[];
  failureReason: string | null;
  /** Per failed service: its first error lines and last lines. */
  containerLogs: Record<string, string>;
  /** Per failed service: the whole log as far as Docker keeps it (for the build log). */
  fullLogs: Record<string, string>;
  states: ServiceState[];
}

/**
 * A container must run this long without a restart to count as running (services without ports or
 * healthcheck), counted from its start. It is there for the worker that exits at once (a missing variable, a
 * module not found: tens of milliseconds for Node or Python on this machine); every restart of a container the
 * deployment started counts, also one before the check first looked. A crash later than this is no longer a
 * failed deployment but a crash alert, sent within a second from Docker's events.
 */
export const STABLE_MS = 500;
/** How often published ports are probed while waiting; every Docker event of the project also wakes the check. */
const PROBE_EVERY_MS = 300;
const FULL_LOG_LINES = 2_000;

/**
 * Resolves at the next Docker event of the workspace's project (a container dying, starting, turning healthy)
 * or after `ms`, whichever comes first.
 */
async function projectEvents(docker: Docker, project: string) {
  let wake: (() => void) | undefined;
  /** Containers the kernel killed for memory: a restart policy may already have started them again. */
  const oomKilled = new Set<string>();
  const stream = (await docker
    .getEvents({
      filters: {
        type: ['container'],
        label: [`${LABELS.composeProject}=${project}`],
      },
    })
    .catch(() => undefined)) as NodeJS.ReadableStream | undefined;
  stream?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      try {
        const event = JSON.parse(line) as { Action?: string; id?: string };
        if (event.Action === 'oom' && event.id) oomKilled.add(event.id);
      } catch {
        // A partial line: the wake-up below is all it is needed for.
      }
    }
    wake?.();
  });
  stream?.on('error', () => {});
  return {
    oomKilled,
    next(ms: number, signal?: AbortSignal) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          wake = undefined;
          resolve();
        }
        wake = done;
        signal?.addEventListener('abort', done);
      });
    },
    close: () => (stream as unknown as { destroy?: () => void })?.destroy?.(),
  };
}

/**
 * Waits until every service is healthy, running stably or completed, as {@link judgeService} defines it, or
 * one of them fails, or the deadline passes. Woken by Docker's events; published ports are probed meanwhile.
 */
export async function verifyHealth(options: {
  docker: Docker;
  /** The Compose project the services run in. */
  project: string;
  /** The label that names the service a container runs (Compose's service label unless said otherwise). */
  serviceLabel?: string;
  roles: ServiceRole[];
  /** `{service: {containerPort: hostPort}}` */
  hostPorts: Record<string, Record<string, number>>;
  urls: Record<string, string>;
  connect: (port: number) => Promise<Duplex>;
  timeoutMs: number;
  stableMs?: number;
  /**
   * The containers that ran before this deployment started its own (left running because they did not change):
   * only their restarts from now on count. Every restart of any other container counts. Without it, only
   * restarts from now on count for every container.
   */
  preExisting?: ReadonlySet<string>;
  /** Only report what already failed: services still on their way at the deadline are not failures. */
  failuresOnly?: boolean;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}): Promise<HealthResult> {
  const stableMs = options.stableMs ?? STABLE_MS;
  const deadline = Date.now() + options.timeoutMs;
  const baseline = new Map<string, number>();
  const serviceLabel = options.serviceLabel ?? LABELS.composeService;
  const events = await projectEvents(options.docker, options.project);
  let lastWaiting = '';
  try {
    while (true) {
      const containers = await listContainersOfProject(options.docker, options.project);
      const byService = new Map<string, Docker.ContainerInfo>();
      for (const container of containers) {
        const service = container.Labels?.[serviceLabel];
        if (service) byService.set(service, container);
      }
      const judged = new Map<string, { judgement: Judgement; info?: Docker.ContainerInspectInfo }>();
      let nextWakeMs = 1_000;
      for (const role of options.roles) {
        const container = byService.get(role.name);
        const info = container
          ? await options.docker
              .getContainer(container.Id)
              .inspect()
              .catch(() => undefined)
          : undefined;
        if (info && !baseline.has(role.name)) {
          const counted = options.preExisting && !options.preExisting.has(info.Id);
          baseline.set(role.name, counted ? 0 : info.RestartCount);
        }
        const probes: ProbeResult[] = [];
        if (
          info?.State.Running &&
          role.publishedPorts.length > 0 &&
          !role.healthcheck &&
          !info.State.Health
        ) {
          for (const hostPort of Object.values(options.hostPorts[role.name] ?? {})) {
            probes.push(await probePort(() => options.connect(hostPort)));
          }
          nextWakeMs = Math.min(nextWakeMs, PROBE_EVERY_MS);
        }
        const judgement = judgeService({
          role,
          info,
          oomKilled: info !== undefined && events.oomKilled.has(info.Id),
          baselineRestarts: baseline.get(role.name) ?? 0,
          probes,
          now: Date.now(),
          stableMs,
        });
        if (judgement.verdict === 'wait' && info?.State.Running && !role.oneShot) {
          nextWakeMs = Math.min(nextWakeMs, Math.max(50, stableIn(info, Date.now(), stableMs)));
        }
        judged.set(role.name, { judgement, info });
      }
      const all = [...judged.entries()];
      const failedNow = all.filter(([, j]) => j.judgement.verdict === 'failed');
      const waiting = all.filter(([, j]) => j.judgement.verdict === 'wait').map(([name]) => name);
      const timedOut = Date.now() > deadline || options.signal?.aborted === true;
      if (failedNow.length > 0 || waiting.length === 0 || timedOut) {
        return await report({ ...options, serviceLabel }, judged, containers, timedOut);
      }
      const line = `Waiting for ${waiting.join(', ')}...`;
      if (line !== lastWaiting) options.onProgress?.(line);
      lastWaiting = line;
      await events.next(Math.min(nextWakeMs, Math.max(0, deadline - Date.now()) + 1), options.signal);
    }
  } finally {
    events.close();
  }
}

async function report(
  options: Parameters<typeof verifyHealth>[0] & { serviceLabel: string },
  judged: Map<string, { judgement: Judgement; info?: Docker.ContainerInspectInfo }>,
  containers: Docker.ContainerInfo[],
  timedOut: boolean,
): Promise<HealthResult> {
  const timeoutSeconds = Math.round(options.timeoutMs / 1000);
  const states: ServiceState[] = [];
  const failedServices: string[] = [];
  const reasons: string[] = [];
  const containerLogs: Record<string, string> = {};
  const fullLogs: Record<string, string> = {};
  for (const role of options.roles) {
    const entry = judged.get(role.name);
    const judgement = entry?.judgement ?? {
      state: 'starting' as const,
      verdict: 'wait' as const,
      exitCode: null,
    };
    let message: string | null = null;
    if (judgement.verdict === 'failed' && judgement.failure) {
      message = failureMessage(role.name, judgement.failure, {
        exitCode: judgement.exitCode,
        timeoutSeconds,
        memoryMb: Math.round((entry?.info?.HostConfig.Memory ?? 0) / 1024 / 1024),
      });
    } else if (judgement.verdict === 'wait' && timedOut && !options.failuresOnly) {
      const port = Object.keys(options.hostPorts[role.name] ?? {})[0];
      const silent = entry?.info?.State.Running && port !== undefined && !role.healthcheck;
      message = silent
        ? failureMessage(role.name, 'port_silent', { exitCode: null, port: Number(port), timeoutSeconds })
        : failureMessage(role.name, 'not_started', { exitCode: null, timeoutSeconds });
    }
    if (message) {
      failedServices.push(role.name);
      reasons.push(message);
      const container = containers.find((c) => c.Labels?.[options.serviceLabel] === role.name);
      const log = container ? await tailContainerLogs(options.docker, container.Id, FULL_LOG_LINES) : '';
      fullLogs[role.name] = log;
      containerLogs[role.name] = summarizeLog(log);
    }
    states.push({
      service: role.name,
      state: judgement.state,
      exit_code:
        judgement.state === 'exited' ||
        judgement.state === 'completed' ||
        judgement.state === 'restarting' ||
        judgement.state === 'oom_killed'
          ? judgement.exitCode
          : null,
      url: options.urls[role.name] ?? null,
      message,
    });
  }
  if (options.signal?.aborted && reasons.length === 0) reasons.push('The health check was cancelled');
  return {
    healthy: reasons.length === 0,
    failedServices,
    failureReason: reasons.length === 0 ? null : reasons.join('; '),
    containerLogs,
    fullLogs,
    states,
  };
}
