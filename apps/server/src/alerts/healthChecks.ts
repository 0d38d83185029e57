import type Docker from 'dockerode';
import { probeServiceUrl } from '../health/probe.js';
import { type ContainerSummary, serviceName } from '../workspaces/workspaceDocker.js';
import type { NewAlert } from './alertsRepository.js';

export type Failure = Omit<NewAlert, 'workspaceId'>;

/** Restarts within this window that make a restart loop. */
export const RESTART_WINDOW_MS = 10 * 60_000;
export const RESTART_LOOP_COUNT = 3;

export const containerName = (container: { Names?: string[]; Id: string }) =>
  container.Names?.[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12);

export const crashedFingerprint = (name: string) => `container_crashed:${name}`;
export const restartLoopFingerprint = (name: string) => `restart_loop:${name}`;
const CONTAINERS_MISSING = 'containers_missing';

/**
 * Whether an alert is one the health checks raise, and so resolve when the failure is over. Other areas' alerts
 * (a failed or missed backup) are theirs to resolve: the checks never find them and must not read that as "over".
 */
export const isHealthFingerprint = (fingerprint: string) =>
  fingerprint === CONTAINERS_MISSING ||
  /^(container_crashed|restart_loop|service_unreachable):/.test(fingerprint);

/** The open alerts the checks own, out of a workspace's open alerts. */
export const healthAlertsOf = (open: ReadonlySet<string> | undefined): Set<string> =>
  new Set([...(open ?? [])].filter(isHealthFingerprint));

/** How a container died: from the engine's `die` (and `oom`) event, or from inspecting a stopped one. */
export interface Crash {
  container: string;
  service: string;
  exitCode: number;
  oomKilled: boolean;
  at: Date;
  /** The last line it printed before dying, if any (the notification carries more). */
  lastLine?: string | undefined;
}

const LAST_LINE_IN_DESCRIPTION = 300;
/** A process just started may not listen yet: not answering in this time is not "unreachable" yet. */
export const STARTUP_GRACE_MS = 15_000;

function crashSummary(crash: Crash): string {
  const oom = crash.oomKilled ? ', killed after running out of memory' : '';
  const last = crash.lastLine ? ` Last log line: ${crash.lastLine.slice(0, LAST_LINE_IN_DESCRIPTION)}` : '';
  return `exit code ${crash.exitCode}${oom}, at ${crash.at.toISOString()}.${last}`;
}

export function crashedFailure(crash: Crash): Failure {
  return {
    fingerprint: crashedFingerprint(crash.container),
    title: `Service ${crash.service} crashed`,
    description: `Container ${crash.container} of service ${crash.service} stopped with ${crashSummary(crash)}`,
    alertType: 'container_crashed',
    severity: 'critical',
    service: crash.service,
  };
}

export function restartLoopFailure(crash: Crash, restarts: number): Failure {
  return {
    fingerprint: restartLoopFingerprint(crash.container),
    title: `Service ${crash.service} is restarting repeatedly`,
    description: `Container ${crash.container} of service ${crash.service} restarted ${restarts} times in the last ${
      RESTART_WINDOW_MS / 60_000
    } minutes; last stop with ${crashSummary(crash)}`,
    alertType: 'restart_loop',
    severity: 'error',
    service: crash.service,
  };
}

/** A container that runs and whose health check (if it has one) does not say otherwise. */
const runsHealthy = (info: Docker.ContainerInspectInfo) =>
  info.State.Running && !info.State.Restarting && (info.State.Health?.Status ?? 'healthy') === 'healthy';

/**
 * What is wrong with a workspace right now, keyed by fingerprint (one active alert per fingerprint).
 * `restartsInWindow` says how often each container died lately, given the engine's restart counter
 * (restartCount.ts);
 * `open` holds the fingerprints already alerted, so a crashed service stays "crashed" (not "unreachable")
 * until it runs and answers again.
 */
export async function findFailures(
  inspect: (container: ContainerSummary) => Promise<Docker.ContainerInspectInfo>,
  containers: ContainerSummary[],
  serviceUrls: Record<string, string>,
  restartsInWindow: (container: ContainerSummary, restartCount: number) => number,
  open: ReadonlySet<string> = new Set(),
): Promise<Map<string, Failure>> {
  const failures = new Map<string, Failure>();
  if (containers.length === 0) {
    failures.set(CONTAINERS_MISSING, {
      fingerprint: CONTAINERS_MISSING,
      title: 'No containers are running',
      description: 'The workspace is live but none of its containers exist on its VM.',
      alertType: 'containers_missing',
      severity: 'critical',
      service: null,
    });
    return failures;
  }
  /** Services already explained by a crash: their unreachable URL is not a second alert. */
  const down = new Set<string>();
  /** Crashed services that run again: their crash is over once they answer. */
  const recovering = new Map<string, Failure[]>();
  /** Services with a container started moments ago. */
  const starting = new Set<string>();
  for (const container of containers) {
    const service = serviceName(container);
    const name = containerName(container);
    let info: Docker.ContainerInspectInfo;
    try {
      info = await inspect(container);
    } catch {
      continue; // removed since the list: the next check sees what replaced it
    }
    const crash: Crash = {
      container: name,
      service,
      exitCode: info.State.ExitCode,
      oomKilled: info.State.OOMKilled,
      at: new Date(info.State.FinishedAt),
    };
    if (info.State.Running && Date.now() - new Date(info.State.StartedAt).getTime() < STARTUP_GRACE_MS) {
      starting.add(service);
    }
    const restarts = restartsInWindow(container, info.RestartCount ?? 0);
    const crashed = crashedFailure(crash);
    if (restarts >= RESTART_LOOP_COUNT) {
      down.add(service);
      failures.set(restartLoopFingerprint(name), restartLoopFailure(crash, restarts));
      if (open.has(crashed.fingerprint)) failures.set(crashed.fingerprint, crashed);
    } else if (!info.State.Running || info.State.Restarting) {
      // `Restarting` is the pause between a death and the restart of a container with a restart policy, after
      // every death (100 ms at first, much longer on a busy engine): one crash, not a loop, until counted.
      // The engine shows such a container as running too.
      down.add(service);
      failures.set(crashed.fingerprint, crashed);
    } else if (open.has(crashed.fingerprint)) {
      if (!runsHealthy(info)) {
        down.add(service);
        failures.set(crashed.fingerprint, crashed);
      } else {
        recovering.set(service, [...(recovering.get(service) ?? []), crashed]);
      }
    }
  }
  const probes = Object.entries(serviceUrls)
    .filter(([service]) => !down.has(service))
    .map(async ([service, url]) => {
      const result = await probeServiceUrl(url);
      if (result.ok) return;
      const crashes = recovering.get(service);
      if (crashes) {
        // Started again but not answering yet: still the crash, not a new "unreachable".
        for (const crash of crashes) failures.set(crash.fingerprint, crash);
        return;
      }
      const fingerprint = `service_unreachable:${service}`;
      if (starting.has(service) && !open.has(fingerprint)) return;
      failures.set(fingerprint, {
        fingerprint,
        title: `Service ${service} is not answering`,
        description: `${url} did not answer (${result.reason}).`,
        alertType: 'service_unreachable',
        severity: 'error',
        service,
      });
    });
  await Promise.all(probes);
  return failures;
}
