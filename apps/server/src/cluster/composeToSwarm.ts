import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { isObj, type Obj } from '../infra/compose/composeMerge.js';
import { awaitedToComplete } from '../infra/compose/composeProject.js';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import { workspaceResourceName } from '../infra/compose/scopedResources.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import type { OverlayNetwork } from '../infra/swarm/swarmNetworks.js';
import { SECOND_NS, type SwarmServiceSpec, type SwarmUpdateConfig } from '../infra/swarm/swarmServiceSpec.js';
import { durationNs } from './composeValues.js';
import { rolloutWaves, serviceWaits } from './rolloutOrder.js';
import { serviceFiles } from './serviceFiles.js';
import { serviceMounts } from './serviceMounts.js';
import { containerSpec, restartPolicy, untranslatableKeys } from './serviceSpec.js';
import type { PlannedService, SwarmPlan, SwarmTranslation, SwarmTranslationInput } from './swarmPlan.js';

/** The label naming the Compose service a Swarm service stands for. */
export const SERVICE_LABEL = 'dev.slipway.service';

/**
 * Swarm's name for a workspace's object (a service; a secret's or config's prefix): unique on the cluster, at
 * most `max` characters of Docker's name characters (a service name is a DNS label: 63).
 */
export function swarmObjectName(workspaceId: string, given: string, max = 63): string {
  const prefix = `w${workspaceId.replaceAll('-', '').slice(0, 12)}`;
  const clean = given.replace(/[^A-Za-z0-9_.-]/g, '-');
  const plain = `${prefix}_${clean}`;
  if (plain.length <= max && clean === given) return plain;
  const hash = createHash('sha256').update(given).digest('hex').slice(0, 8);
  return `${prefix}_${clean.slice(0, max - prefix.length - 10)}-${hash}`;
}

export const swarmServiceName = (workspaceId: string, service: string) =>
  swarmObjectName(workspaceId, service);

function pathKindOnDisk(file: string): 'file' | 'directory' | 'missing' {
  try {
    return statSync(file).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/** The networks a service joins (Compose's `default` when it names none), with its aliases on each. */
function serviceNetworks(service: Obj): Record<string, string[]> {
  if (Array.isArray(service.networks))
    return Object.fromEntries(service.networks.map((n) => [String(n), []]));
  if (isObj(service.networks)) {
    return Object.fromEntries(
      Object.entries(service.networks).map(([network, options]) => [
        network,
        isObj(options) && Array.isArray(options.aliases) ? options.aliases.map(String) : [],
      ]),
    );
  }
  return { default: [] };
}

/**
 * Replicas a node may hold: an even share, one more so a start-first update has room for its new replica on a
 * full node, and never less than the survivors of a lost node need.
 */
export function maxReplicasPerNode(replicas: number, nodes: number): number {
  return Math.max(Math.ceil(replicas / nodes) + 1, Math.ceil(replicas / Math.max(nodes - 1, 1)));
}

function updateConfig(service: Obj, order: SwarmUpdateConfig['Order'], key: string): SwarmUpdateConfig {
  const given = isObj(service.deploy) && isObj(service.deploy[key]) ? (service.deploy[key] as Obj) : {};
  const delay = durationNs(given.delay);
  const monitor = durationNs(given.monitor);
  return {
    Parallelism: typeof given.parallelism === 'number' && given.parallelism > 0 ? given.parallelism : 1,
    ...(delay !== undefined ? { Delay: delay } : {}),
    // A new replica that fails its health check rolls the whole update back; a failing rollback stops.
    FailureAction: key === 'update_config' ? 'rollback' : 'pause',
    Monitor: monitor ?? 5 * SECOND_NS,
    MaxFailureRatio: 0,
    Order: order,
  };
}

/**
 * The Compose project as Swarm services on the workspace's overlay networks. Every key is translated, set by
 * Slipway as on one VM, or refused with a sentence naming it and the service. Published ports are host-mode with
 * a port the engine picks per replica (no routing mesh: these kernels have no IPVS), found in each task's status.
 */
export function translateToSwarm(input: SwarmTranslationInput): SwarmTranslation {
  const projectName = composeProjectName(input.workspaceId);
  const all = isObj(input.project.services) ? input.project.services : {};
  const services = Object.fromEntries(
    Object.entries(all).flatMap(([name, raw]) => {
      const service = isObj(raw) ? raw : {};
      // Services behind a profile are not started, on one VM or on a cluster.
      return Array.isArray(service.profiles) && service.profiles.length > 0 ? [] : [[name, service]];
    }),
  );
  const violations: PolicyViolation[] = [];
  const oneShots = awaitedToComplete(services);
  const volumes = isObj(input.project.volumes) ? input.project.volumes : {};
  const declaredNetworks = isObj(input.project.networks) ? input.project.networks : {};
  const pathKind = input.pathKind ?? pathKindOnDisk;
  const labels = { [LABELS.workspaceId]: input.workspaceId, [LABELS.userId]: input.userId };
  const nodes = input.nodeIds.length;
  const pins: Record<string, string> = {};
  const volumeNodes = new Map<string, string>();
  const networksUsed = new Set<string>();
  const aliases: Record<string, Set<string>> = {};
  const addAlias = (service: string, alias: string) => {
    aliases[service] ??= new Set();
    aliases[service].add(alias);
  };
  for (const [name, service] of Object.entries(services)) {
    // On one VM other services reach a container by its container_name and its links' aliases; on the overlay
    // those names become aliases of the service.
    if (typeof service.container_name === 'string') addAlias(name, service.container_name);
    for (const link of Array.isArray(service.links) ? service.links : []) {
      const [target = '', alias] = String(link).split(':');
      if (alias && target in services) addAlias(target, alias);
    }
  }
  const planned: PlannedService[] = [];
  for (const [name, service] of Object.entries(services)) {
    violations.push(...untranslatableKeys(name, service));
    const image = input.images[name];
    if (!image) throw new Error(`No image in the cluster's registry for service ${name}`);
    // Secret and config names get a content hash appended (13 characters) within Swarm's 64.
    const filePrefix = (given: string) => swarmObjectName(input.workspaceId, given, 50);
    const mounts = serviceMounts(name, service, {
      projectName,
      filePrefix,
      repoDir: input.repoDir,
      volumes,
      pathKind,
      violations,
    });
    const files = [
      ...mounts.files,
      ...serviceFiles(name, service, { filePrefix, project: input.project, violations }),
    ];
    const oneShot = oneShots.has(name);
    const global = isObj(service.deploy) && service.deploy.mode === 'global';
    const stateful = mounts.namedVolumes.length > 0;
    let replicas = input.replicas[name] ?? 1;
    let pinnedTo: string | undefined;
    if (stateful) {
      // A service with a named volume runs on the node that holds the volume, never twice.
      const known = mounts.namedVolumes.map((volume) => volumeNodes.get(volume)).find(Boolean);
      pinnedTo = input.pinned?.[name] ?? known ?? input.nodeIds[Object.keys(pins).length % nodes];
      if (!pinnedTo) throw new Error('A cluster without nodes');
      pins[name] = pinnedTo;
      for (const volume of mounts.namedVolumes) volumeNodes.set(volume, pinnedTo);
      if (global) {
        violations.push({
          service: name,
          key: 'deploy.mode',
          message: `Service '${name}' uses deploy.mode: global with a named volume, which a cluster cannot honour: a volume lives on one node`,
        });
      }
      replicas = Math.min(replicas, 1);
    }
    const networks = serviceNetworks(service);
    for (const network of Object.keys(networks)) networksUsed.add(network);
    const order = stateful ? 'stop-first' : 'start-first';
    const ports = input.publishedPorts[name] ?? [];
    const spec: SwarmServiceSpec = {
      Name: swarmServiceName(input.workspaceId, name),
      Labels: { ...labels, [SERVICE_LABEL]: name },
      TaskTemplate: {
        ContainerSpec: {
          ...containerSpec(service, {
            image,
            env: input.env ?? [],
            labels: { ...labels, [SERVICE_LABEL]: name },
          }),
          Mounts: mounts.mounts,
        },
        Resources: {
          Limits: {
            NanoCPUs: Math.round(input.limits.cpusPerService * 1e9),
            MemoryBytes: Math.floor(input.limits.memoryBytesPerService),
            Pids: 1024,
          },
        },
        RestartPolicy: restartPolicy(service, oneShot),
        Placement: pinnedTo
          ? { Constraints: [`node.id==${pinnedTo}`] }
          : global || oneShot
            ? {}
            : {
                Preferences: [{ Spread: { SpreadDescriptor: 'node.id' } }],
                MaxReplicas: maxReplicasPerNode(replicas, nodes),
              },
        Networks: Object.entries(networks).map(([network, extra]) => ({
          Target: workspaceResourceName(
            projectName,
            isObj(declaredNetworks[network]) && typeof (declaredNetworks[network] as Obj).name === 'string'
              ? String((declaredNetworks[network] as Obj).name)
              : network,
          ),
          Aliases: [...new Set([name, ...extra, ...(aliases[name] ?? [])])],
        })),
        ...(isObj(service.logging) && typeof service.logging.driver === 'string'
          ? {
              LogDriver: {
                Name: service.logging.driver,
                Options: Object.fromEntries(
                  Object.entries(isObj(service.logging.options) ? service.logging.options : {}).map(
                    ([k, v]) => [k, String(v)],
                  ),
                ),
              },
            }
          : {}),
      },
      Mode: oneShot
        ? { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } }
        : global
          ? { Global: {} }
          : { Replicated: { Replicas: replicas } },
      ...(oneShot
        ? {}
        : {
            UpdateConfig: updateConfig(service, order, 'update_config'),
            RollbackConfig: updateConfig(service, order, 'rollback_config'),
          }),
      EndpointSpec: {
        Mode: 'dnsrr',
        ...(ports.length > 0
          ? {
              Ports: ports.map((port) => ({
                Protocol: 'tcp' as const,
                TargetPort: port,
                // No published port: the engine picks one per replica, so a start-first update can start the new
                // replica beside the old one on the same node. The task's status says which.
                PublishedPort: 0,
                PublishMode: 'host' as const,
              })),
            }
          : {}),
      },
    };
    planned.push({ service: name, spec, files, oneShot, ...(pinnedTo ? { pinnedTo } : {}) });
  }
  const networks: OverlayNetwork[] = [...networksUsed].map((network) => {
    const declared = isObj(declaredNetworks[network]) ? (declaredNetworks[network] as Obj) : {};
    return {
      name: workspaceResourceName(projectName, typeof declared.name === 'string' ? declared.name : network),
      encrypted: input.encrypted,
      internal: declared.internal === true,
      labels,
    };
  });
  const waits = serviceWaits(services);
  const { waves, cycle } = rolloutWaves(waits);
  if (cycle.length > 0) {
    violations.push({
      service: cycle[0] ?? null,
      key: 'depends_on',
      message: `Services ${cycle.map((s) => `'${s}'`).join(', ')} wait for each other in a circle (depends_on)`,
    });
  }
  if (violations.length > 0) return { kind: 'refused', violations };
  const plan: SwarmPlan = { networks, services: planned, order: waves, waits, pins };
  return { kind: 'plan', plan };
}
