import { Scalar } from 'yaml';
import { replicasOf, type ServiceRole } from '../../health/serviceRoles.js';
import { LABELS } from '../../infra/docker/conventions.js';
import type { HostPorts } from '../hostPorts.js';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `"no"` must stay a string: Compose v1 reads YAML 1.1, where a plain `no` is the boolean false. */
function quotedNo(): Scalar {
  const scalar = new Scalar('no');
  scalar.type = Scalar.QUOTE_DOUBLE;
  return scalar;
}

/**
 * The `ports:` of a service on its host ports: one per container port, or for N replicas a range of N host
 * ports from it (the engine gives each replica one; a restarted replica gets the one left free, its own).
 */
export function portBindings(
  publishAddress: string,
  ports: Record<string, number> | undefined,
  replicas: number,
): string[] {
  return Object.entries(ports ?? {}).map(([containerPort, hostPort]) => {
    const hosts = replicas > 1 ? `${hostPort}-${hostPort + replicas - 1}` : `${hostPort}`;
    return `${publishAddress}:${hosts}:${containerPort}/tcp`;
  });
}

/**
 * The replica count both Compose CLIs read: `deploy.replicas` (v1 1.29 and v2 honour it outside swarm; `scale`
 * beside a different count is an error in v2), and a label saying so, by which logs, health and alerts name each
 * container `{service}.{n}`. A service of one replica that never asked for more keeps its file as it was.
 */
export function setReplicas(service: Obj, replicas: number) {
  const deploy = isObj(service.deploy) ? service.deploy : undefined;
  const asked = service.scale !== undefined || deploy?.replicas !== undefined;
  delete service.scale;
  if (replicas === 1 && !asked) return;
  service.deploy = { ...deploy, replicas };
  if (replicas > 1) {
    service.labels = {
      ...(isObj(service.labels) ? service.labels : {}),
      [LABELS.replicas]: String(replicas),
    };
  }
}

/**
 * The runtime half of the project file: each published container port bound to its fixed host port on the
 * VM's private address (so a restarted container keeps its address and URL), no host port for anything else,
 * and the restart policy as the user wrote it — a one-shot service without one never restarts.
 */
export function applyRuntimePlan(
  config: Obj,
  plan: { roles: ServiceRole[]; hostPorts: HostPorts; publishAddress: string },
): Obj {
  const services = isObj(config.services) ? config.services : {};
  const out: Obj = {};
  for (const [name, raw] of Object.entries(services)) {
    const service: Obj = { ...(isObj(raw) ? raw : {}) };
    const role = plan.roles.find((r) => r.name === name);
    const bindings = portBindings(plan.publishAddress, plan.hostPorts[name], replicasOf(role));
    if (bindings.length > 0) service.ports = bindings;
    else delete service.ports;
    setReplicas(service, replicasOf(role));
    const restart = role?.restart ?? (role?.oneShot ? 'no' : service.restart);
    if (restart === 'no' || restart === false) service.restart = quotedNo();
    else if (restart !== undefined) service.restart = restart;
    out[name] = service;
  }
  return { ...config, services: out };
}
