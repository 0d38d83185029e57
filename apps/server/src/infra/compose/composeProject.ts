import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { NON_DOCKERIZED_MESSAGE } from '@slipway/contract';
import { DomainError } from '../../domain/errors.js';
import { builderOf, composeProjectName, LABELS } from '../docker/conventions.js';
import { scopeResourceNames } from './scopedResources.js';
import { followJoinedServices, ipcDonors } from './sharedNamespaces.js';

/** The file names Compose itself looks for, in its order of preference. */
export const COMPOSE_FILE_NAMES = [
  'compose.yaml',
  'compose.yml',
  'docker-compose.yaml',
  'docker-compose.yml',
];

export type DetectedProject = { kind: 'compose'; file: string } | { kind: 'dockerfile'; dockerfile: string };

/** Finds what to run at the repository root: a compose file, else a single Dockerfile. */
export function detectProject(repoDir: string): DetectedProject {
  for (const name of COMPOSE_FILE_NAMES) {
    const file = path.join(repoDir, name);
    if (existsSync(file) && statSync(file).isFile()) return { kind: 'compose', file };
  }
  const dockerfile = path.join(repoDir, 'Dockerfile');
  if (existsSync(dockerfile) && statSync(dockerfile).isFile()) return { kind: 'dockerfile', dockerfile };
  throw new DomainError('unprocessable', NON_DOCKERIZED_MESSAGE);
}

/** A one-service compose project for a repository that has only a Dockerfile. */
export function composeForDockerfile(repoDir: string, serviceName: string): Record<string, unknown> {
  return { services: { [serviceName]: { build: { context: repoDir, dockerfile: 'Dockerfile' } } } };
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface NormalizedService {
  name: string;
  /** Services behind a profile are not started by `up` without `--profile`. */
  inactive: boolean;
  hasBuild: boolean;
  image: string | undefined;
  /** Container ports (TCP) the compose file publishes or exposes. */
  declaredPorts: number[];
}

function portTarget(entry: unknown): number | undefined {
  if (typeof entry === 'number') return entry;
  if (typeof entry === 'string') {
    // "[ip:][host:]container[/proto]" — the container part is last before the protocol.
    const [spec, proto = 'tcp'] = entry.split('/');
    if (proto !== 'tcp') return undefined;
    const target = spec?.split(':').pop() ?? '';
    const first = Number(target.split('-')[0]);
    return Number.isInteger(first) && first > 0 ? first : undefined;
  }
  if (isObj(entry)) {
    if (entry.protocol && entry.protocol !== 'tcp') return undefined;
    const target = Number(entry.target);
    return Number.isInteger(target) && target > 0 ? target : undefined;
  }
  return undefined;
}

export function listServices(config: Obj): NormalizedService[] {
  const services = isObj(config.services) ? config.services : {};
  return Object.entries(services).map(([name, raw]) => {
    const service = isObj(raw) ? raw : {};
    const ports = [
      ...(Array.isArray(service.ports) ? service.ports : []),
      ...(Array.isArray(service.expose) ? service.expose : []),
    ]
      .map(portTarget)
      .filter((port): port is number => port !== undefined);
    return {
      name,
      inactive: Array.isArray(service.profiles) && service.profiles.length > 0,
      hasBuild: service.build !== undefined,
      image: typeof service.image === 'string' ? service.image : undefined,
      declaredPorts: [...new Set(ports)],
    };
  });
}

/** Lowercase DNS-label form of a name (hostnames, image repositories). */
export function dnsLabel(name: string): string {
  const label = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return label.slice(0, 40) || 'app';
}

export { escapeCompose, stringifyCompose } from './composeYaml.js';

export interface FinalizeOptions {
  workspaceId: string;
  userId: string;
  deploymentId: string;
  /** Image name for each service built by us: `{service: name:tag}`. */
  imageNames: Record<string, string>;
  /** Address published ports bind to on the VM (never 0.0.0.0). */
  publishAddress: string;
  /** Container ports to publish per service; absent before the build. */
  ports?: Record<string, number[]>;
  env?: { key: string; value: string }[];
  limits: { cpusPerService: number; memoryBytesPerService: number };
}

const LIMIT_KEYS = [
  'mem_limit',
  'memswap_limit',
  'mem_reservation',
  'mem_swappiness',
  'cpus',
  'cpu_count',
  'cpu_percent',
  'cpu_shares',
  'cpu_quota',
  'cpu_period',
  'cpuset',
  'pids_limit',
  'container_name',
];

/** Services another service waits for with `condition: service_completed_successfully`. */
export function awaitedToComplete(services: Obj): Set<string> {
  const found = new Set<string>();
  for (const service of Object.values(services)) {
    if (!isObj(service) || !isObj(service.depends_on)) continue;
    for (const [dep, options] of Object.entries(service.depends_on)) {
      if (isObj(options) && options.condition === 'service_completed_successfully') found.add(dep);
    }
  }
  return found;
}

/**
 * Turns the checked, normalized config into the file Slipway runs: our image names, our labels, the VM size's
 * limits, ports published on the VM's private address only, the workspace's variables (the writer,
 * composeYaml.ts, escapes `$` so Compose interpolates nothing and quotes newlines and quotes), fixed network
 * and volume names made the workspace's own (scopedResources.ts), and services that join another's namespaces
 * recreated with it (sharedNamespaces.ts).
 */
export function finalizeConfig(config: Obj, options: FinalizeOptions): Obj {
  const services = isObj(config.services) ? config.services : {};
  const oneShots = awaitedToComplete(services);
  const donors = ipcDonors(services);
  const out: Record<string, Obj> = {};
  for (const [name, raw] of Object.entries(services)) {
    const service: Obj = { ...(isObj(raw) ? raw : {}) };
    for (const key of LIMIT_KEYS) delete service[key];
    if (isObj(service.deploy)) {
      const { resources: _ignored, ...rest } = service.deploy;
      service.deploy = rest;
    }
    // A built service's container says which deployment built its image (its name's tag); one running a
    // published image carries no deployment: when nothing changed, its configuration is the same from one
    // deployment to the next and Compose leaves it running (a database keeps its container across redeploys),
    // and so is that of a built service whose new build is the image it runs (deployApplication.ts).
    const image = service.build !== undefined ? options.imageNames[name] : undefined;
    service.labels = {
      ...(isObj(service.labels) ? service.labels : {}),
      [LABELS.workspaceId]: options.workspaceId,
      [LABELS.userId]: options.userId,
      ...(service.build !== undefined
        ? { [LABELS.deploymentId]: image ? builderOf(image) : options.deploymentId }
        : {}),
    };
    // The image's name says whose it is (conventions.ts); the build gets no label of ours, which the classic
    // builder would commit as a step of its own (~80 ms a service, every build).
    if (image) service.image = image;
    const memory = Math.floor(options.limits.memoryBytesPerService);
    service.mem_limit = memory;
    service.memswap_limit = memory;
    service.cpus = Number(options.limits.cpusPerService.toFixed(2));
    service.pids_limit = 1024;
    // The user's policy is kept; a long-running service without one is restarted, a one-shot (awaited with
    // service_completed_successfully) runs once.
    if (service.restart === undefined && !oneShots.has(name)) service.restart = 'unless-stopped';
    // A shell or server running as PID 1 ignores SIGTERM and would cost every redeploy the 10 s stop timeout;
    // Docker's init forwards the signal (and reaps zombies).
    service.init ??= true;
    // A container joins another's IPC namespace only when that one is shareable; an engine whose default IPC
    // mode is `private` (this machine's Docker 20.10) refuses `ipc: service:x` at `up` otherwise.
    if (donors.has(name)) service.ipc ??= 'shareable';
    const ports = options.ports?.[name] ?? [];
    if (ports.length > 0) service.ports = ports.map((port) => `${options.publishAddress}::${port}/tcp`);
    else delete service.ports;
    if (options.env && options.env.length > 0) {
      const current = service.environment;
      const environment: Obj = {};
      if (Array.isArray(current)) {
        for (const item of current) {
          const text = String(item);
          const at = text.indexOf('=');
          environment[at === -1 ? text : text.slice(0, at)] = at === -1 ? null : text.slice(at + 1);
        }
      } else if (isObj(current)) Object.assign(environment, current);
      for (const { key, value } of options.env) environment[key] = value;
      service.environment = environment;
    }
    out[name] = service;
  }
  followJoinedServices(out);
  const { version: _version, name: _name, services: _services, ...rest } = config;
  return { ...scopeResourceNames(rest, composeProjectName(options.workspaceId)), services: out };
}
