import type { CadvisorContainerInfo, CadvisorMachineInfo } from '@slipway/contract';

/**
 * Host and container readings in cAdvisor's v1.3 shapes, for the admin panel's System Monitoring tab: a real
 * cAdvisor (cadvisorProxy.ts) or the Docker Engine's own readings (dockerContainerMonitor.ts); the platform
 * chooses (platform/chooseContainerMonitor.ts).
 */
export interface ContainerMonitor {
  readonly source: 'cadvisor' | 'docker';
  machine(): Promise<CadvisorMachineInfo>;
  /** The root container '/' with every Docker container in full as its subcontainers. */
  containers(): Promise<CadvisorContainerInfo>;
}
