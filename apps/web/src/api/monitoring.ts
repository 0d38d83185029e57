import type { SystemHealthContainers, SystemHealthStatus, SystemInfo, VmHealth } from '@slipway/contract';
import { callRoute } from './routeClient';
import { useWorkspaceQuery } from './workspaceQuery';

export async function fetchSystemHealthStatus(workspace: string): Promise<SystemHealthStatus> {
  return callRoute('systemHealthStatus', { params: { workspace } });
}

/** The spec wraps this answer ({system_info: …}); the screens read the inner shape. */
export async function fetchSystemInfo(workspace: string): Promise<SystemInfo> {
  return (await callRoute('systemInfo', { params: { workspace } })).system_info;
}

/** The spec wraps this answer ({vm_health: …}); the screens read the inner shape. */
export async function fetchVmHealth(workspace: string): Promise<VmHealth> {
  return (await callRoute('vmHealthMetrics', { params: { workspace } })).vm_health;
}

export async function fetchSystemHealthContainers(workspace: string): Promise<SystemHealthContainers> {
  return callRoute('systemHealthContainers', { params: { workspace } });
}

export async function deploySystemHealth(workspace: string): Promise<void> {
  await callRoute('deploySystemHealth', { params: { workspace } });
}

export const monitoringKeys = {
  status: (ws: string) => ['monitoring', ws, 'status'] as const,
  info: (ws: string) => ['monitoring', ws, 'info'] as const,
  vm: (ws: string) => ['monitoring', ws, 'vm'] as const,
  containers: (ws: string) => ['monitoring', ws, 'containers'] as const,
};

/** Spec: the VM figures and containers refresh every 30 s once system health is deployed. */
export const SYSTEM_HEALTH_POLL_MS = 30_000;

/** Whether system health is deployed; the monitoring screen shows a failure at once (`retry: false`). */
export const useSystemHealthStatus = (workspace: string, options: { retry?: false } = {}) =>
  useWorkspaceQuery(monitoringKeys.status, fetchSystemHealthStatus, workspace, options);

export const useSystemInfo = (workspace: string, deployed: boolean) =>
  useWorkspaceQuery(monitoringKeys.info, fetchSystemInfo, workspace, { enabled: deployed });

export const useVmHealth = (workspace: string, deployed: boolean) =>
  useWorkspaceQuery(monitoringKeys.vm, fetchVmHealth, workspace, {
    enabled: deployed,
    refetchInterval: SYSTEM_HEALTH_POLL_MS,
  });

export const useSystemHealthContainers = (workspace: string, deployed: boolean) =>
  useWorkspaceQuery(monitoringKeys.containers, fetchSystemHealthContainers, workspace, {
    enabled: deployed,
    refetchInterval: SYSTEM_HEALTH_POLL_MS,
  });
