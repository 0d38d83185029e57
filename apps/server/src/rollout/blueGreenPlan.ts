import type { ServiceRole } from '../health/serviceRoles.js';
import { hasNamedVolume, unchanged, type VersionView } from './serviceChanges.js';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a redeploy replaces what changed: blue/green (started and verified beside the serving version) or in place. */
export type Replacement = { blueGreen: string[] } | { inPlace: string };

/** The services a service starts after (`depends_on`, list or map). */
export const dependenciesOf = (service: Obj): string[] =>
  Array.isArray(service.depends_on)
    ? service.depends_on.map(String)
    : isObj(service.depends_on)
      ? Object.keys(service.depends_on)
      : [];

/** A bind mount the service may write to (bind mounts are absolute paths by now): a data directory. */
function writesBindMount(service: Obj): boolean {
  const volumes = Array.isArray(service.volumes) ? service.volumes : [];
  return volumes.some((entry) => {
    if (typeof entry === 'string') {
      const [source = '', , mode = ''] = entry.split(':');
      return /^[/.~]/.test(source) && entry.includes(':') && !mode.split(',').includes('ro');
    }
    return isObj(entry) && entry.type === 'bind' && entry.read_only !== true;
  });
}

/** A `network_mode`, `pid` or `ipc` that joins another service's container: it cannot run beside it. */
const sharesAnotherContainer = (service: Obj) =>
  ['network_mode', 'pid', 'ipc'].some((key) => /^(service|container):/.test(String(service[key] ?? ''))) ||
  service.volumes_from !== undefined;

/**
 * Which services of a redeploy go blue/green — start beside the serving version before anything is replaced: the changed
 * services that publish a port (users reach those through their URL), unless one of them keeps data in a
 * named volume or a writable bind mount (two copies must not write one data directory — a second database on
 * it would not even start: it is replaced in place, as the log says), shares another container, or waits for a changed one-shot service (a migration the new version needs would run
 * only with the replacement). Everything else changes in place after the switch, as before.
 */
export function planReplacement(
  previous: VersionView | undefined,
  next: VersionView,
  roles: ServiceRole[],
): Replacement {
  if (!previous) return { inPlace: 'no version is serving' };
  const changed = new Set(Object.keys(next.services).filter((name) => !unchanged(previous, next, name)));
  const published = roles.filter((role) => role.publishedPorts.length > 0 && !role.oneShot);
  const chosen = published.map((role) => role.name).filter((name) => changed.has(name));
  if (chosen.length === 0) return { inPlace: 'no published service changed' };
  for (const name of chosen) {
    const service = next.services[name] ?? {};
    if (hasNamedVolume(service)) return { inPlace: `${name} keeps its data in a named volume` };
    if (writesBindMount(service)) return { inPlace: `${name} writes to a bind-mounted directory` };
    if (sharesAnotherContainer(service)) return { inPlace: `${name} shares another container` };
    const oneShot = dependenciesOf(service).find(
      (dep) => changed.has(dep) && roles.find((role) => role.name === dep)?.oneShot,
    );
    if (oneShot) return { inPlace: `${name} waits for ${oneShot}, which changed and runs once` };
  }
  return { blueGreen: chosen };
}
