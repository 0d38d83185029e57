import { isObj, type Obj, toMap } from '../infra/compose/composeMerge.js';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import { SECOND_NS, type SwarmHealthCheck, type SwarmServiceSpec } from '../infra/swarm/swarmServiceSpec.js';
import { commandWords, durationNs } from './composeValues.js';

/** Keys a Swarm service is given from (or that Slipway sets itself, exactly as on one VM). */
export const TRANSLATED_KEYS = new Set([
  'image',
  'build',
  'command',
  'entrypoint',
  'environment',
  'labels',
  'healthcheck',
  'restart',
  'ports',
  'expose',
  'depends_on',
  'volumes',
  'tmpfs',
  'shm_size',
  'secrets',
  'configs',
  'networks',
  'logging',
  'init',
  'user',
  'working_dir',
  'hostname',
  'stop_signal',
  'stop_grace_period',
  'tty',
  'stdin_open',
  'read_only',
  'cap_drop',
  'extra_hosts',
  'dns',
  'dns_search',
  'dns_opt',
  'ulimits',
  'container_name',
  'links',
  'deploy',
  'scale',
  'profiles',
  'group_add',
]);
/** Limits Slipway replaces with the VM size's, on one VM as on a cluster (composeProject.finalizeConfig). */
export const SLIPWAY_LIMIT_KEYS = new Set([
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
  'pull_policy',
  'platform',
]);
/** Why a key has no Swarm equivalent, where a reason says more than "no setting". */
const REASONS: Record<string, string> = {
  network_mode: 'Swarm runs every replica in a network namespace of its own',
  pid: 'Swarm cannot share a process namespace between replicas, which may run on different nodes',
  ipc: 'Swarm cannot share an IPC namespace between replicas, which may run on different nodes',
  volumes_from: "another service's volumes live on another node",
  external_links: 'containers outside the workspace are not reachable',
  mac_address: 'Swarm gives each replica its own address',
};
const DEPLOY_KEYS = new Set([
  'replicas',
  'resources',
  'restart_policy',
  'labels',
  'mode',
  'endpoint_mode',
  'update_config',
  'rollback_config',
]);

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const strings = (value: unknown) =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];

function healthCheck(value: unknown): SwarmHealthCheck | undefined {
  if (!isObj(value)) return undefined;
  if (value.disable === true) return { Test: ['NONE'] };
  const test = typeof value.test === 'string' ? ['CMD-SHELL', value.test] : strings(value.test);
  const check: SwarmHealthCheck = { Test: test };
  const interval = durationNs(value.interval);
  const timeout = durationNs(value.timeout);
  const start = durationNs(value.start_period);
  if (interval !== undefined) check.Interval = interval;
  if (timeout !== undefined) check.Timeout = timeout;
  if (start !== undefined) check.StartPeriod = start;
  if (typeof value.retries === 'number') check.Retries = value.retries;
  return check;
}

/** Compose's `restart` (or `deploy.restart_policy`) as Swarm's restart policy; a one-shot restarts never. */
function restartPolicy(service: Obj, oneShot: boolean): SwarmServiceSpec['TaskTemplate']['RestartPolicy'] {
  const deploy = isObj(service.deploy) ? service.deploy : {};
  if (isObj(deploy.restart_policy)) {
    const policy = deploy.restart_policy;
    const condition =
      policy.condition === 'none' || policy.condition === 'on-failure' ? policy.condition : 'any';
    const delay = durationNs(policy.delay);
    const window = durationNs(policy.window);
    return {
      Condition: condition,
      ...(delay !== undefined ? { Delay: delay } : { Delay: SECOND_NS }),
      ...(typeof policy.max_attempts === 'number' ? { MaxAttempts: policy.max_attempts } : {}),
      ...(window !== undefined ? { Window: window } : {}),
    };
  }
  const restart = typeof service.restart === 'string' ? service.restart : undefined;
  if (oneShot || restart === 'no') return { Condition: 'none' };
  const onFailure = restart ? /^on-failure(?::(\d+))?$/.exec(restart) : null;
  if (onFailure) {
    return {
      Condition: 'on-failure',
      Delay: SECOND_NS,
      ...(onFailure[1] ? { MaxAttempts: Number(onFailure[1]) } : {}),
    };
  }
  return { Condition: 'any', Delay: SECOND_NS };
}

/**
 * The keys of one service a Swarm service cannot honour, each a sentence naming the service and the key: every
 * key is either translated, replaced by Slipway's own setting (limits, as on one VM), or refused here.
 */
export function untranslatableKeys(name: string, service: Obj): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  const refuse = (key: string, value: unknown, why: string) =>
    found.push({
      service: name,
      key,
      message: `Service '${name}' uses ${key}: ${show(value)}, which a cluster cannot honour: ${why}`,
    });
  for (const [key, value] of Object.entries(service)) {
    if (TRANSLATED_KEYS.has(key) || SLIPWAY_LIMIT_KEYS.has(key)) continue;
    if (key === 'ipc' && (value === 'private' || value === 'shareable')) continue;
    refuse(key, value, REASONS[key] ?? 'a Swarm service has no such setting');
  }
  const deploy = isObj(service.deploy) ? service.deploy : {};
  for (const [key, value] of Object.entries(deploy)) {
    if (DEPLOY_KEYS.has(key)) continue;
    const why =
      key === 'placement'
        ? 'Slipway places the replicas itself (spread over the nodes, a service with a volume on its node)'
        : 'a Swarm service has no such setting';
    refuse(`deploy.${key}`, value, why);
  }
  if (deploy.mode !== undefined && !['replicated', 'global'].includes(String(deploy.mode))) {
    refuse(
      'deploy.mode',
      deploy.mode,
      'Slipway runs replicated and global services, and one-shots awaited by another',
    );
  }
  const networks = isObj(service.networks) ? service.networks : {};
  for (const [network, options] of Object.entries(networks)) {
    if (isObj(options) && (options.ipv4_address !== undefined || options.ipv6_address !== undefined)) {
      refuse(
        `networks.${network}.ipv4_address`,
        options.ipv4_address ?? options.ipv6_address,
        'Swarm gives each replica its own address',
      );
    }
  }
  return found;
}

/** The container part of a service's spec: what runs, with which settings. */
export function containerSpec(
  service: Obj,
  options: { image: string; env: { key: string; value: string }[]; labels: Record<string, string> },
): SwarmServiceSpec['TaskTemplate']['ContainerSpec'] {
  const environment = Object.fromEntries(
    Object.entries(toMap(service.environment)).flatMap(([k, v]) =>
      v === null || v === undefined ? [] : [[k, String(v)]],
    ),
  );
  for (const { key, value } of options.env) environment[key] = value;
  const labels = Object.fromEntries(
    Object.entries(toMap(service.labels)).map(([k, v]) => [k, String(v ?? '')]),
  );
  const command = commandWords(service.command);
  const entrypoint = commandWords(service.entrypoint);
  const health = healthCheck(service.healthcheck);
  const grace = durationNs(service.stop_grace_period);
  const extraHosts = Object.entries(toMap(service.extra_hosts, ':')).map(
    ([host, ip]) => `${String(ip)} ${host}`,
  );
  const ulimits = isObj(service.ulimits)
    ? Object.entries(service.ulimits).map(([limit, value]) => {
        const pair = isObj(value) ? value : { soft: value, hard: value };
        return { Name: limit, Soft: Number(pair.soft), Hard: Number(pair.hard) };
      })
    : [];
  const dns = {
    Nameservers: strings(service.dns),
    Search: strings(service.dns_search),
    Options: strings(service.dns_opt),
  };
  return {
    Image: options.image,
    Labels: { ...labels, ...options.labels },
    ...(command ? { Args: command } : {}),
    ...(entrypoint ? { Command: entrypoint } : {}),
    Env: Object.entries(environment).map(([k, v]) => `${k}=${v}`),
    ...(typeof service.hostname === 'string' ? { Hostname: service.hostname } : {}),
    ...(typeof service.working_dir === 'string' ? { Dir: service.working_dir } : {}),
    ...(service.user !== undefined ? { User: String(service.user) } : {}),
    ...(service.group_add !== undefined ? { Groups: strings(service.group_add) } : {}),
    ...(service.tty === true ? { TTY: true } : {}),
    ...(service.stdin_open === true ? { OpenStdin: true } : {}),
    ...(service.read_only === true ? { ReadOnly: true } : {}),
    // As on one VM: Docker's init forwards SIGTERM to a shell or server running as PID 1.
    Init: service.init !== false,
    ...(typeof service.stop_signal === 'string' ? { StopSignal: service.stop_signal } : {}),
    ...(grace !== undefined ? { StopGracePeriod: grace } : {}),
    ...(health ? { HealthCheck: health } : {}),
    ...(extraHosts.length > 0 ? { Hosts: extraHosts } : {}),
    ...(dns.Nameservers.length + dns.Search.length + dns.Options.length > 0 ? { DNSConfig: dns } : {}),
    ...(service.cap_drop !== undefined ? { CapabilityDrop: strings(service.cap_drop) } : {}),
    ...(ulimits.length > 0 ? { Ulimits: ulimits } : {}),
  };
}

export { restartPolicy };
