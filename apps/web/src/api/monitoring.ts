import type { SystemHealthContainers, SystemHealthStatus, SystemInfo, VmHealth } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from './routeClient';

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
export function useSystemHealthStatus(workspace: string, options: { retry?: false } = {}) {
  return useQuery({
    queryKey: monitoringKeys.status(workspace),
    queryFn: () => fetchSystemHealthStatus(workspace),
    ...options,
  });
}

export function useSystemInfo(workspace: string, deployed: boolean) {
  return useQuery({
    queryKey: monitoringKeys.info(workspace),
    queryFn: () => fetchSystemInfo(workspace),
    enabled: deployed,
  });
}

export function useVmHealth(workspace: string, deployed: boolean) {
  return useQuery({
    queryKey: monitoringKeys.vm(workspace),
    queryFn: () => fetchVmHealth(workspace),
    enabled: deployed,
    refetchInterval: SYSTEM_HEALTH_POLL_MS,
  });
}

export function useSystemHealthContainers(workspace: string, deployed: boolean) {
  return useQuery({
    queryKey: monitoringKeys.containers(workspace),
    queryFn: () => fetchSystemHealthContainers(workspace),
    enabled: deployed,
    refetchInterval: SYSTEM_HEALTH_POLL_MS,
  });
}
