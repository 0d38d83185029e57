import { isDeepStrictEqual } from 'node:util';

type Services = Record<string, Record<string, unknown>>;

/** A version as Compose will see it: its services in the project file (variables aside) and a digest of those. */
export interface VersionView {
  services: Services;
  envDigest: string | undefined;
}

/** A named volume among the service's mounts (bind mounts are absolute paths by now). */
export function hasNamedVolume(service: Record<string, unknown>) {
  const volumes = Array.isArray(service.volumes) ? service.volumes : [];
  return volumes.some((entry) =>
    typeof entry === 'string'
      ? !/^[/.~]/.test(entry) && entry.includes(':')
      : typeof entry === 'object' && entry !== null && (entry as { type?: unknown }).type === 'volume',
  );
}

/** Whether a service runs exactly as before: the same configuration in the project file and the same variables. */
export function unchanged(previous: VersionView | undefined, next: VersionView, name: string): boolean {
  const before = previous?.services[name];
  const after = next.services[name];
  return (
    before !== undefined &&
    previous?.envDigest !== undefined &&
    previous.envDigest === next.envDigest &&
    isDeepStrictEqual(before, after)
  );
}

/**
 * What a new version does to the services that ran before, said before it happens: one whose configuration
 * and variables did not change is left running (Compose sees the same service) — a built one too when its
 * build is the image it runs already — and one running a published image with a named volume whose
 * configuration changed is recreated in place.
 */
export function serviceChanges(previous: VersionView | undefined, next: VersionView): string[] {
  if (!previous) return [];
  const lines: string[] = [];
  for (const [name, service] of Object.entries(next.services)) {
    if (!previous.services[name]) continue;
    if (unchanged(previous, next, name)) {
      lines.push(`${name}: unchanged, left running`);
    } else if (service.build === undefined && hasNamedVolume(service)) {
      lines.push(`${name}: its configuration changed, so it is recreated in place (its volumes are kept)`);
    }
  }
  return lines;
}
