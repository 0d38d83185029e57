import { requestedReplicas } from '../../compose-policy/replicaPolicy.js';
import { LABELS } from '../../infra/docker/conventions.js';
import { dependenciesOf } from '../blueGreenPlan.js';
import type { HostPorts } from '../hostPorts.js';
import { portBindings } from './runtimePlan.js';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A green service's name in its own project. Compose gives every container its service name as a DNS alias on
 * each network it joins, so the green copy must not be called `web`: the app's other services would reach the
 * unverified version through the alias they use for the serving one. (`candidate` is the name its containers
 * carried before blue/green had one name; it stays, so a restart still finds those of an older Slipway.)
 */
export const greenServiceName = (service: string) => `slipway-candidate-${service}`;

/** The network names of the workspace's project, as Compose created them. */
function networkName(config: Obj, key: string, mainProject: string): string {
  const declared = isObj(config.networks) ? config.networks[key] : undefined;
  return isObj(declared) && typeof declared.name === 'string' ? declared.name : `${mainProject}_${key}`;
}

/** The networks a service joins, by key (no key means the project's default network). */
const networksOf = (service: Obj): string[] =>
  Array.isArray(service.networks)
    ? service.networks.map(String)
    : isObj(service.networks)
      ? Object.keys(service.networks)
      : ['default'];

/**
 * The project file of a redeploy's green copy: the chosen services of the new version's file, renamed, on the
 * workspace's networks (joined as existing networks, without the aliases the serving services answer to), on
 * host ports of their own, and labelled as the green copy rather than as one of the workspace's containers.
 * Dependencies on services outside the green copy are dropped: those run already, in the workspace's project.
 */
export function greenProject(
  config: Obj,
  options: {
    services: string[];
    mainProject: string;
    workspaceId: string;
    hostPorts: HostPorts;
    publishAddress: string;
  },
): Obj {
  const all = isObj(config.services) ? config.services : {};
  const chosen = new Set(options.services);
  const services: Obj = {};
  const networks: Obj = {};
  for (const name of options.services) {
    const service: Obj = { ...(isObj(all[name]) ? all[name] : {}) };
    delete service.build;
    delete service.links;
    delete service.hostname;
    const keys = networksOf(service);
    service.networks = Object.fromEntries(keys.map((key) => [key, {}]));
    for (const key of keys)
      networks[key] = { external: true, name: networkName(config, key, options.mainProject) };
    const waitsFor = dependenciesOf(service).filter((dep) => chosen.has(dep));
    const conditions = isObj(service.depends_on) ? service.depends_on : {};
    if (waitsFor.length > 0) {
      service.depends_on = Object.fromEntries(
        waitsFor.map((dep) => [
          greenServiceName(dep),
          isObj(conditions[dep]) ? conditions[dep] : { condition: 'service_started' },
        ]),
      );
    } else delete service.depends_on;
    const labels: Obj = { ...(isObj(service.labels) ? service.labels : {}) };
    // Empty, not absent: a container inherits its image's labels, and an image's own `dev.slipway.workspace-id`
    // (a Dockerfile's LABEL, a published image) would put the green copy under that workspace's logs and alerts.
    labels[LABELS.workspaceId] = '';
    labels[LABELS.candidateOf] = options.workspaceId;
    labels[LABELS.candidateService] = name;
    service.labels = labels;
    // The project file's own count (runtimePlan.ts wrote it): the green copy starts as many replicas.
    service.ports = portBindings(options.publishAddress, options.hostPorts[name], requestedReplicas(service));
    services[greenServiceName(name)] = service;
  }
  const project: Obj = { services, networks };
  for (const key of ['secrets', 'configs'] as const)
    if (config[key] !== undefined) project[key] = config[key];
  return project;
}
