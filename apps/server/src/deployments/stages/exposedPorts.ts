import type Docker from 'dockerode';
import type { NormalizedService } from '../../infra/compose/composeProject.js';

/** Container ports to publish per service: those the compose file declares plus the image's EXPOSE. */
export async function containerPortsToPublish(
  docker: Docker,
  services: NormalizedService[],
  imageFor: (service: NormalizedService) => string | undefined,
): Promise<Record<string, number[]>> {
  const result: Record<string, number[]> = {};
  for (const service of services) {
    const ports = new Set(service.declaredPorts);
    const image = imageFor(service);
    if (image) {
      try {
        const info = await docker.getImage(image).inspect();
        for (const key of Object.keys(info.Config?.ExposedPorts ?? {})) {
          const [port, proto] = key.split('/');
          if (proto === 'tcp' && Number(port) > 0) ports.add(Number(port));
        }
      } catch {
        // Not built or pulled yet: only the declared ports are known.
      }
    }
    if (ports.size > 0) result[service.name] = [...ports].sort((a, b) => a - b);
  }
  return result;
}
