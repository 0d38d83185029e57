import type { CadvisorContainerInfo, CadvisorMachineInfo } from '@slipway/contract';
import { createCadvisorProxy } from './cadvisorProxy.js';
import { createDockerContainerMonitor } from './dockerContainerMonitor.js';

/**
 * Host and container readings in cAdvisor's v1.3 shapes, for the admin panel's System Monitoring tab.
 * A real cAdvisor answers when CADVISOR_URL is set; otherwise the Docker Engine's own readings are shaped
 * the same way, so the tab works on a plain Docker host.
 */
export interface ContainerMonitor {
  readonly source: 'cadvisor' | 'docker';
  machine(): Promise<CadvisorMachineInfo>;
  /** The root container '/' with every Docker container in full as its subcontainers. */
  containers(): Promise<CadvisorContainerInfo>;
}

export function createContainerMonitor(options: {
  cadvisorUrl: string | undefined;
  dockerSocket: string;
}): ContainerMonitor {
  return options.cadvisorUrl
    ? createCadvisorProxy(options.cadvisorUrl)
    : createDockerContainerMonitor({ socketPath: options.dockerSocket });
}
