import type { SystemHealthContainers, SystemHealthStatus, SystemInfo, VmHealth } from '@slipway/contract';
import { api } from './client';

const base = (path: string, workspace: string) => `/api/monitoring/${path}/${encodeURIComponent(workspace)}`;

/** Some answers are wrapped ({system_info: …}); the spec names the wrapper, the contract the inner shape. */
function unwrap<T>(data: unknown, key: string): T {
  if (data && typeof data === 'object' && key in data) return (data as Record<string, T>)[key] as T;
  return data as T;
}

export async function fetchSystemHealthStatus(workspace: string): Promise<SystemHealthStatus> {
  const { data } = await api.get<SystemHealthStatus>(base('system-health-status', workspace));
  return data;
}

export async function fetchSystemInfo(workspace: string): Promise<SystemInfo> {
  const { data } = await api.get<unknown>(base('system-info', workspace));
  return unwrap<SystemInfo>(data, 'system_info');
}

export async function fetchVmHealth(workspace: string): Promise<VmHealth> {
  const { data } = await api.get<unknown>(base('vm-health-metrics', workspace));
  return unwrap<VmHealth>(data, 'vm_health');
}

export async function fetchSystemHealthContainers(workspace: string): Promise<SystemHealthContainers> {
  const { data } = await api.get<SystemHealthContainers>(base('system-health-containers', workspace));
  return { ...data, containers: data.containers ?? {} };
}

export async function deploySystemHealth(workspace: string): Promise<void> {
  await api.post(base('system-health-deploy', workspace));
}

export const monitoringKeys = {
  status: (ws: string) => ['monitoring', ws, 'status'] as const,
  info: (ws: string) => ['monitoring', ws, 'info'] as const,
  vm: (ws: string) => ['monitoring', ws, 'vm'] as const,
  containers: (ws: string) => ['monitoring', ws, 'containers'] as const,
};
