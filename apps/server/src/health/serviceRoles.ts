import type { NormalizedService } from '../infra/compose/composeProject.js';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How one service is judged healthy, read from the normalised compose project. */
export interface ServiceRole {
  name: string;
  /** Container ports (TCP) the service publishes with `ports:`; only these services get URLs and routes. */
  publishedPorts: number[];
  /** Runs to completion: `restart: "no"` / `on-failure`, or awaited with `service_completed_successfully`. */
  oneShot: boolean;
  /** Declares a Compose healthcheck that is not disabled: Docker's health status decides. */
  healthcheck: boolean;
  /** The restart policy as the project states it (undefined: none given). */
  restart: string | undefined;
  /** Containers the service runs (`deploy.replicas`, `scale` or the workspace's override); absent in older plans: 1. */
  replicas?: number;
}

/** How many containers a role runs. */
export const replicasOf = (role: Pick<ServiceRole, 'replicas'> | undefined) => role?.replicas ?? 1;

/** The roles with these counts (a kept version run again takes the workspace's counts of now). */
export const withReplicas = (roles: ServiceRole[], replicas: Record<string, number> | undefined) =>
  roles.map(({ replicas: _before, ...role }) => {
    const count = replicas?.[role.name] ?? _before ?? 1;
    return count === 1 ? role : { ...role, replicas: count };
  });

/** Containers per service, as the roles say. */
export const replicaCounts = (roles: ServiceRole[]) =>
  Object.fromEntries(roles.map((role) => [role.name, replicasOf(role)]));

/** The container port of one `ports:` entry (short or long syntax), TCP only. */
export function publishedTarget(entry: unknown): number | undefined {
  if (typeof entry === 'number') return entry;
  if (typeof entry === 'string') {
    // "[ip:][host:]container[/proto]"; a range publishes its first port.
    const [spec = '', proto = 'tcp'] = entry.split('/');
    if (proto !== 'tcp') return undefined;
    const port = Number((spec.split(':').pop() ?? '').split('-')[0]);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  }
  if (isObj(entry)) {
    if (entry.protocol !== undefined && entry.protocol !== 'tcp') return undefined;
    const port = Number(entry.target);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  }
  return undefined;
}

/** Services another service waits for with `condition: service_completed_successfully`. */
export function awaitedToComplete(services: Obj): Set<string> {
  const awaited = new Set<string>();
  for (const raw of Object.values(services)) {
    const dependsOn = isObj(raw) ? raw.depends_on : undefined;
    if (!isObj(dependsOn)) continue;
    for (const [name, condition] of Object.entries(dependsOn)) {
      if (isObj(condition) && condition.condition === 'service_completed_successfully') awaited.add(name);
    }
  }
  return awaited;
}

const restartOf = (service: Obj): string | undefined =>
  typeof service.restart === 'string' ? service.restart : service.restart === false ? 'no' : undefined;

const endsOnItsOwn = (restart: string | undefined) =>
  restart === 'no' || restart?.startsWith('on-failure') === true;

const declaresHealthcheck = (service: Obj) => {
  const check = service.healthcheck;
  if (!isObj(check) || check.disable === true) return false;
  const test = check.test;
  if (Array.isArray(test)) return test[0] !== 'NONE' && test.length > 0;
  return typeof test === 'string' && test.length > 0;
};

/**
 * The role of every active service. `imagePorts` gives the image's EXPOSEd ports, used only for the single
 * service of a Dockerfile-only repository (it has no `ports:` of its own and is public by definition).
 */
export function serviceRoles(
  normalized: Obj,
  services: NormalizedService[],
  options: { dockerfileOnly: boolean; replicas?: Record<string, number> },
): ServiceRole[] {
  const all = isObj(normalized.services) ? normalized.services : {};
  const awaited = awaitedToComplete(all);
  return services
    .filter((service) => !service.inactive)
    .map((service) => {
      const raw = isObj(all[service.name]) ? (all[service.name] as Obj) : {};
      const ports = options.dockerfileOnly
        ? service.declaredPorts
        : (Array.isArray(raw.ports) ? raw.ports : [])
            .map(publishedTarget)
            .filter((port): port is number => port !== undefined);
      const restart = restartOf(raw);
      return {
        name: service.name,
        publishedPorts: [...new Set(ports)].sort((a, b) => a - b),
        oneShot: awaited.has(service.name) || endsOnItsOwn(restart),
        healthcheck: declaresHealthcheck(raw),
        restart,
        ...((options.replicas?.[service.name] ?? 1) !== 1
          ? { replicas: options.replicas![service.name]! }
          : {}),
      };
    });
}
