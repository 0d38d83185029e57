import type { Duplex } from 'node:stream';
import type { ServiceState } from '@slipway/contract';
import type Docker from 'dockerode';
import { LABELS } from '../infra/docker/conventions.js';
import { listContainersOfProject, tailContainerLogs } from '../infra/docker/projectResources.js';
import { failureMessage, summarizeLog } from './failureReport.js';
import { type ProbeResult, probePort } from './probe.js';
import { type Judgement, judgeService, stableIn } from './serviceJudgement.js';
import { replicasOf, type ServiceRole } from './serviceRoles.js';

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
    close() {
      // Docker's event stream is a socket under the plain ReadableStream type dockerode gives it.
      if (stream && 'destroy' in stream && typeof stream.destroy === 'function') stream.destroy();
    },
  };
}

/** One container the check judges: a service's, or one replica of a replicated service (`web.2`). */
interface Unit {
  name: string;
  role: ServiceRole;
  container?: Docker.ContainerInfo;
}
type Judged = Unit & { judgement: Judgement; info?: Docker.ContainerInspectInfo };

/**
 * The containers to judge: one per service, or each of a replicated service's N replicas by Compose's number
 * (a replica not created yet is judged as not started).
 */
function unitsOf(roles: ServiceRole[], containers: Docker.ContainerInfo[], serviceLabel: string): Unit[] {
  return roles.flatMap((role) => {
    const own = containers
      .filter((c) => c.Labels?.[serviceLabel] === role.name)
      .sort((a, b) => replicaNumber(a) - replicaNumber(b));
    const count = replicasOf(role);
    if (count === 1) return [{ name: role.name, role, ...(own.at(-1) ? { container: own.at(-1)! } : {}) }];
    return Array.from({ length: count }, (_, i) => {
      const container = own[i];
      const number = container ? replicaNumber(container) : i + 1;
      return { name: `${role.name}.${number}`, role, ...(container ? { container } : {}) };
    });
  });
}

const replicaNumber = (container: Docker.ContainerInfo) =>
  Number(container.Labels?.[LABELS.composeNumber] ?? 1) || 1;

/** The host ports to probe: the service's own, or for a replica the ones the engine gave it from the range. */
function hostPortsOf(unit: Unit, ports: Record<string, number>): number[] {
  if (replicasOf(unit.role) === 1) return Object.values(ports);
  return Object.keys(ports).flatMap((containerPort) => {
    const bound = unit.container?.Ports?.find(
      (port) => String(port.PrivatePort) === containerPort && port.PublicPort,
    );
    return bound ? [bound.PublicPort] : [];
  });
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
      const judged = new Map<string, Judged>();
      let nextWakeMs = 1_000;
      for (const unit of unitsOf(options.roles, containers, serviceLabel)) {
        const { role, container } = unit;
        const info = container
          ? await options.docker
              .getContainer(container.Id)
              .inspect()
              .catch(() => undefined)
          : undefined;
        if (info && !baseline.has(unit.name)) {
          const counted = options.preExisting && !options.preExisting.has(info.Id);
          baseline.set(unit.name, counted ? 0 : info.RestartCount);
        }
        const probes: ProbeResult[] = [];
        if (
          info?.State.Running &&
          role.publishedPorts.length > 0 &&
          !role.healthcheck &&
          !info.State.Health
        ) {
          for (const hostPort of hostPortsOf(unit, options.hostPorts[role.name] ?? {})) {
            probes.push(await probePort(() => options.connect(hostPort)));
          }
          nextWakeMs = Math.min(nextWakeMs, PROBE_EVERY_MS);
        }
        const judgement = judgeService({
          role,
          info,
          oomKilled: info !== undefined && events.oomKilled.has(info.Id),
          baselineRestarts: baseline.get(unit.name) ?? 0,
          probes,
          now: Date.now(),
          stableMs,
        });
        if (judgement.verdict === 'wait' && info?.State.Running && !role.oneShot) {
          nextWakeMs = Math.min(nextWakeMs, Math.max(50, stableIn(info, Date.now(), stableMs)));
        }
        judged.set(unit.name, { ...unit, judgement, ...(info ? { info } : {}) });
      }
      const all = [...judged.entries()];
      const failedNow = all.filter(([, j]) => j.judgement.verdict === 'failed');
      const waiting = all.filter(([, j]) => j.judgement.verdict === 'wait').map(([name]) => name);
      const timedOut = Date.now() > deadline || options.signal?.aborted === true;
      if (failedNow.length > 0 || waiting.length === 0 || timedOut) {
        return await report(options, judged, timedOut);
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
  options: Parameters<typeof verifyHealth>[0],
  judged: Map<string, Judged>,
  timedOut: boolean,
): Promise<HealthResult> {
  const timeoutSeconds = Math.round(options.timeoutMs / 1000);
  const states: ServiceState[] = [];
  const failedServices: string[] = [];
  const reasons: string[] = [];
  const containerLogs: Record<string, string> = {};
  const fullLogs: Record<string, string> = {};
  for (const [name, entry] of judged) {
    const { role, judgement } = entry;
    let message: string | null = null;
    if (judgement.verdict === 'failed' && judgement.failure) {
      message = failureMessage(name, judgement.failure, {
        exitCode: judgement.exitCode,
        timeoutSeconds,
        memoryMb: Math.round((entry.info?.HostConfig.Memory ?? 0) / 1024 / 1024),
      });
    } else if (judgement.verdict === 'wait' && timedOut && !options.failuresOnly) {
      const port = Object.keys(options.hostPorts[role.name] ?? {})[0];
      const silent = entry.info?.State.Running && port !== undefined && !role.healthcheck;
      message = silent
        ? failureMessage(name, 'port_silent', { exitCode: null, port: Number(port), timeoutSeconds })
        : failureMessage(name, 'not_started', { exitCode: null, timeoutSeconds });
    }
    if (message) {
      failedServices.push(name);
      reasons.push(message);
      const log = entry.container
        ? await tailContainerLogs(options.docker, entry.container.Id, FULL_LOG_LINES)
        : '';
      fullLogs[name] = log;
      containerLogs[name] = summarizeLog(log);
    }
    states.push({
      service: name,
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
