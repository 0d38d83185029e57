import { Scalar } from 'yaml';
import type { HostPorts } from './hostPorts.js';
import type { ServiceRole } from './serviceRoles.js';

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
    const bindings = Object.entries(plan.hostPorts[name] ?? {});
    if (bindings.length > 0) {
      service.ports = bindings.map(
        ([containerPort, hostPort]) => `${plan.publishAddress}:${hostPort}:${containerPort}/tcp`,
      );
    } else delete service.ports;
    const role = plan.roles.find((r) => r.name === name);
    const restart = role?.restart ?? (role?.oneShot ? 'no' : service.restart);
    if (restart === 'no' || restart === false) service.restart = quotedNo();
    else if (restart !== undefined) service.restart = restart;
    out[name] = service;
  }
  return { ...config, services: out };
}
