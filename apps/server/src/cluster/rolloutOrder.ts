import { isObj, type Obj } from '../infra/compose/composeMerge.js';
import type { ServiceWait } from './swarmPlan.js';

const CONDITIONS = new Set<ServiceWait['condition']>([
  'service_started',
  'service_healthy',
  'service_completed_successfully',
]);

/** What each service waits for: its depends_on (long or short form) and the services it links to (started). */
export function serviceWaits(services: Record<string, Obj>): Record<string, ServiceWait[]> {
  const waits: Record<string, ServiceWait[]> = {};
  for (const [name, service] of Object.entries(services)) {
    const list: ServiceWait[] = [];
    const dependsOn = service.depends_on;
    const entries: [string, unknown][] = Array.isArray(dependsOn)
      ? dependsOn.map((dep) => [String(dep), {}])
      : isObj(dependsOn)
        ? Object.entries(dependsOn)
        : [];
    for (const [dep, options] of entries) {
      const condition = isObj(options) ? options.condition : undefined;
      list.push({
        service: dep,
        condition: CONDITIONS.has(condition as ServiceWait['condition'])
          ? (condition as ServiceWait['condition'])
          : 'service_started',
      });
    }
    for (const link of Array.isArray(service.links) ? service.links : []) {
      const target = String(link).split(':')[0]!;
      if (!list.some((wait) => wait.service === target))
        list.push({ service: target, condition: 'service_started' });
    }
    waits[name] = list.filter((wait) => wait.service in services);
  }
  return waits;
}

/**
 * Waves of services in start order: a service comes after every service it waits for. A cycle cannot be started
 * in any order; its services are returned in `cycle`.
 */
export function rolloutWaves(waits: Record<string, ServiceWait[]>): { waves: string[][]; cycle: string[] } {
  const placed = new Set<string>();
  const waves: string[][] = [];
  let left = Object.keys(waits);
  while (left.length > 0) {
    const wave = left.filter((name) => (waits[name] ?? []).every((wait) => placed.has(wait.service)));
    if (wave.length === 0) return { waves, cycle: left };
    for (const name of wave) placed.add(name);
    waves.push(wave);
    left = left.filter((name) => !placed.has(name));
  }
  return { waves, cycle: [] };
}
