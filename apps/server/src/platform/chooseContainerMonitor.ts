import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { createCadvisorProxy } from '../infra/cadvisor/cadvisorProxy.js';
import type { ContainerMonitor } from '../infra/cadvisor/containerMonitor.js';
import { createDockerContainerMonitor } from '../infra/cadvisor/dockerContainerMonitor.js';

/**
 * A real cAdvisor when CADVISOR_URL is set; otherwise the Docker Engine's own readings, shaped the same way,
 * so the admin panel's System Monitoring tab works on a plain Docker host.
 */
export function chooseContainerMonitor(config: Config, logger: Logger): ContainerMonitor {
  return config.cadvisor.url
    ? createCadvisorProxy(config.cadvisor.url)
    : createDockerContainerMonitor({ socketPath: config.vm.dockerSocket, logger });
}
