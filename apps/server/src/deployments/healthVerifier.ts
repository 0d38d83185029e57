import http from 'node:http';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { LABELS } from '../infra/docker/conventions.js';
import { listProjectContainers, tailContainerLogs } from '../infra/docker/projectResources.js';
import type { PublishedPort } from './portDiscovery.js';

export interface HealthResult {
  healthy: boolean;
  failedServices: string[];
  failureReason: string | null;
  containerLogs: Record<string, string>;
}

/**
 * Whether something answers on a published port: any HTTP response counts; a server that accepts the
 * connection and speaks something else (or nothing yet) counts as a TCP answer. A reset or refused
 * connection — what Docker's port proxy gives when nothing listens inside — does not.
 */
export async function probePort(connect: () => Promise<Duplex>, timeoutMs = 3000): Promise<boolean> {
  let socket: Duplex;
  try {
    socket = await connect();
  } catch {
    return false;
  }
  return new Promise((resolve) => {
    const request = http.request({
      createConnection: () => socket as never,
      path: '/',
      method: 'GET',
      headers: { host: 'localhost', 'user-agent': 'slipway-health' },
      timeout: timeoutMs,
    });
    const done = (ok: boolean) => {
      request.destroy();
      socket.destroy();
      resolve(ok);
    };
    request.on('response', (response) => {
      response.resume();
      done(true);
    });
    request.on('timeout', () => done(!socket.destroyed));
    request.on('error', (error: NodeJS.ErrnoException) => done(Boolean(error.code?.startsWith('HPE_'))));
    request.end();
  });
}

/**
 * Waits until every service with a port answers and every container runs, twice in a row half a second apart,
 * or until the deadline. A container that exits or restarts fails the check at once.
 */
export async function verifyHealth(options: {
  docker: Docker;
  workspaceId: string;
  expectedServices: string[];
  ports: PublishedPort[];
  connect: (port: number) => Promise<Duplex>;
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}): Promise<HealthResult> {
  const deadline = Date.now() + options.timeoutMs;
  let okRounds = 0;
  let lastReason = 'The services did not answer in time';
  let lastFailed: string[] = [];
  while (!options.signal?.aborted) {
    const containers = await listProjectContainers(options.docker, options.workspaceId);
    const byService = new Map(containers.map((c) => [c.Labels?.[LABELS.composeService] ?? '', c]));
    const crashed: string[] = [];
    for (const service of options.expectedServices) {
      const container = byService.get(service);
      if (!container) crashed.push(service);
      else if (container.State !== 'running') crashed.push(service);
    }
    if (crashed.length > 0) {
      const states = crashed.map((s) => `${s} (${byService.get(s)?.State ?? 'missing'})`).join(', ');
      return fail(options, crashed, `Containers stopped or restarting: ${states}`, containers);
    }
    const silent: string[] = [];
    for (const port of options.ports) {
      if (!(await probePort(() => options.connect(port.hostPort)))) silent.push(port.service);
    }
    lastFailed = [...new Set(silent)];
    if (lastFailed.length === 0) {
      okRounds += 1;
      if (okRounds >= 2) return { healthy: true, failedServices: [], failureReason: null, containerLogs: {} };
    } else {
      okRounds = 0;
      lastReason = `No answer on the published port of: ${lastFailed.join(', ')}`;
      options.onProgress?.(`Waiting for ${lastFailed.join(', ')} to answer...`);
    }
    if (Date.now() > deadline) {
      return fail(
        options,
        lastFailed,
        `${lastReason} within ${Math.round(options.timeoutMs / 1000)} s`,
        containers,
      );
    }
    // Quick retries while waiting; one confirming round half a second after the first success.
    await new Promise((resolve) => setTimeout(resolve, okRounds > 0 ? 500 : 250));
  }
  return fail(options, lastFailed, 'The health check was cancelled', []);
}

async function fail(
  options: { docker: Docker; expectedServices: string[] },
  failedServices: string[],
  reason: string,
  containers: Docker.ContainerInfo[],
): Promise<HealthResult> {
  const containerLogs: Record<string, string> = {};
  for (const container of containers) {
    const service = container.Labels?.[LABELS.composeService];
    if (service) containerLogs[service] = await tailContainerLogs(options.docker, container.Id, 50);
  }
  return { healthy: false, failedServices, failureReason: reason, containerLogs };
}
