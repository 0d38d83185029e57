import { createHash } from 'node:crypto';
import { LABELS } from '../docker/conventions.js';
import { isObj, type Obj } from './composeMerge.js';

/**
 * Services that share another service's namespaces (`network_mode`, `pid` or `ipc: service:x`, allowed within the
 * project by composePolicy.ts), as the file Compose runs must write them.
 */
const SHARED_KEYS = ['network_mode', 'pid', 'ipc'] as const;

/** The services `service` joins with `service:x`. */
function joined(service: Obj): string[] {
  return SHARED_KEYS.map((key) => /^service:(.+)$/.exec(String(service[key] ?? ''))?.[1]).filter(
    (name): name is string => name !== undefined,
  );
}

/** Services another one joins with `ipc: service:x`: the engine lets a container join only a shareable one. */
export function ipcDonors(services: Obj): Set<string> {
  const found = new Set<string>();
  for (const service of Object.values(services)) {
    const shared = isObj(service) ? /^service:(.+)$/.exec(String(service.ipc ?? ''))?.[1] : undefined;
    if (shared !== undefined) found.add(shared);
  }
  return found;
}

/**
 * Labels each service that joins another's namespaces with a digest of that one's final configuration. Compose v1
 * does not recreate the joining service when the one it joined is recreated: it stays in the removed container's
 * namespaces (its processes die with that container's PID 1, or it is left without a network). With the label, a
 * change of the joined service is a change of the joining one, and Compose recreates both, in order.
 */
export function followJoinedServices(services: Record<string, Obj>): void {
  const done = new Set<string>();
  const visit = (name: string, path: string[]) => {
    const service = services[name];
    if (!service || done.has(name) || path.includes(name)) return;
    const targets = joined(service).filter((target) => services[target] !== undefined);
    for (const target of targets) visit(target, [...path, name]);
    if (targets.length > 0) {
      const digest = createHash('sha256');
      for (const target of targets) digest.update(`${target}\0${JSON.stringify(services[target])}\0`);
      service.labels = {
        ...(isObj(service.labels) ? service.labels : {}),
        [LABELS.joins]: `${targets.join(',')}@${digest.digest('hex').slice(0, 16)}`,
      };
    }
    done.add(name);
  };
  for (const name of Object.keys(services)) visit(name, []);
}
