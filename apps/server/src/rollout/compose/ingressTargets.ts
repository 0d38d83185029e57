import type { IngressTarget } from '../../infra/ingress/ingress.js';
import type { HostPorts } from '../hostPorts.js';

/**
 * The ingress target of each published port on its host port; a service of N replicas holds N consecutive host
 * ports from it (hostPorts.ts), one per replica, and its target lists them all.
 */
export function targetsOf(
  hostPorts: HostPorts,
  replicas: Record<string, number>,
  upstream: (hostPort: number) => string,
): IngressTarget[] {
  const ports = Object.entries(hostPorts).flatMap(([service, bound]) =>
    Object.values(bound).map((hostPort) => ({ service, hostPort })),
  );
  return ports.map(({ service, hostPort }) => {
    const count = replicas[service] ?? 1;
    return {
      service,
      upstream: upstream(hostPort),
      hostPort,
      ...(count > 1 ? { upstreams: Array.from({ length: count }, (_, i) => upstream(hostPort + i)) } : {}),
    };
  });
}
