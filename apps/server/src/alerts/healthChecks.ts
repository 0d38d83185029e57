import type Docker from 'dockerode';
import { type ContainerSummary, serviceName } from '../workspaces/workspaceDocker.js';
import type { NewAlert } from './alertsRepository.js';
import { probeServiceUrl } from './serviceProbe.js';

export type Failure = Omit<NewAlert, 'workspaceId'>;

/** Restarts within this window that make a restart loop. */
export const RESTART_WINDOW_MS = 10 * 60_000;
export const RESTART_LOOP_COUNT = 3;

const containerName = (container: ContainerSummary) =>
  container.Names[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12);

/**
 * What is wrong with a workspace right now, keyed by fingerprint (one active alert per fingerprint).
 * `restartsInWindow` says how often each container restarted lately (engine counter and die events).
 */
export async function findFailures(
  docker: Docker,
  containers: ContainerSummary[],
  serviceUrls: Record<string, string>,
  restartsInWindow: (container: ContainerSummary, restartCount: number) => number,
): Promise<Map<string, Failure>> {
  const failures = new Map<string, Failure>();
  if (containers.length === 0) {
    failures.set('containers_missing', {
      fingerprint: 'containers_missing',
      title: 'No containers are running',
      description: 'The workspace is live but none of its containers exist on its VM.',
      alertType: 'containers_missing',
      severity: 'critical',
      service: null,
    });
    return failures;
  }
  const down = new Set<string>();
  for (const container of containers) {
    const service = serviceName(container);
    const name = containerName(container);
    let info: Docker.ContainerInspectInfo;
    try {
      info = await docker.getContainer(container.Id).inspect();
    } catch {
      continue; // removed since the list: the next check sees what replaced it
    }
    const restarts = restartsInWindow(container, info.RestartCount ?? 0);
    if (info.State.Restarting || restarts >= RESTART_LOOP_COUNT) {
      down.add(service);
      failures.set(`restart_loop:${name}`, {
        fingerprint: `restart_loop:${name}`,
        title: `Service ${service} is restarting repeatedly`,
        description: `Container ${name} of service ${service} restarted ${restarts} times in the last ${RESTART_WINDOW_MS / 60_000} minutes (last exit code ${info.State.ExitCode}${info.State.OOMKilled ? ', out of memory' : ''}).`,
        alertType: 'restart_loop',
        severity: 'error',
        service,
      });
    } else if (!info.State.Running) {
      down.add(service);
      failures.set(`container_crashed:${name}`, {
        fingerprint: `container_crashed:${name}`,
        title: `Service ${service} crashed`,
        description: `Container ${name} of service ${service} stopped with exit code ${info.State.ExitCode}${
          info.State.OOMKilled ? ' after running out of memory' : ''
        } at ${info.State.FinishedAt}.`,
        alertType: 'container_crashed',
        severity: 'critical',
        service,
      });
    }
  }
  // A crashed container explains its unreachable URL; one alert for one failure.
  const probes = Object.entries(serviceUrls)
    .filter(([service]) => !down.has(service))
    .map(async ([service, url]) => {
      const result = await probeServiceUrl(url);
      if (result.ok) return;
      failures.set(`service_unreachable:${service}`, {
        fingerprint: `service_unreachable:${service}`,
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
