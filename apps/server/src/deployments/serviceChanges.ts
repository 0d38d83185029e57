import { isDeepStrictEqual } from 'node:util';

type Services = Record<string, Record<string, unknown>>;

/** A version as Compose will see it: its services in the project file (variables aside) and a digest of those. */
export interface VersionView {
  services: Services;
  envDigest: string | undefined;
}

/** A named volume among the service's mounts (bind mounts are absolute paths by now). */
function hasNamedVolume(service: Record<string, unknown>) {
  const volumes = Array.isArray(service.volumes) ? service.volumes : [];
  return volumes.some((entry) =>
    typeof entry === 'string'
      ? !/^[/.~]/.test(entry) && entry.includes(':')
      : typeof entry === 'object' && entry !== null && (entry as { type?: unknown }).type === 'volume',
  );
}

/**
 * What a new version does to the services that run a published image, said before it happens: one whose
 * configuration and variables did not change is left running (Compose sees the same service), one with a
 * named volume whose configuration changed is recreated in place. Services built by Slipway get a new image
 * every deployment and are not mentioned.
 */
export function serviceChanges(previous: VersionView | undefined, next: VersionView): string[] {
  if (!previous) return [];
  const sameVariables = previous.envDigest !== undefined && previous.envDigest === next.envDigest;
  const lines: string[] = [];
  for (const [name, service] of Object.entries(next.services)) {
    const before = previous.services[name];
    if (service.build !== undefined || !before) continue;
    if (sameVariables && isDeepStrictEqual(before, service)) {
      lines.push(`${name}: unchanged, left running`);
    } else if (hasNamedVolume(service)) {
      lines.push(`${name}: its configuration changed, so it is recreated in place (its volumes are kept)`);
    }
  }
  return lines;
}
