import type { AdminUser } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import {
  fetchAdminStats,
  fetchAdminUsers,
  fetchAdminVms,
  fetchAdminWorkspaces,
  fetchAuditLog,
  fetchRedisInfo,
  fetchSystemLogServices,
  fetchSystemLogTail,
  fetchWhitelistedEmails,
  type SystemLogServices,
} from './admin';

export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  users: ['admin', 'users'] as const,
  whitelistUsers: ['admin', 'whitelist-users'] as const,
  whitelistedEmails: ['admin', 'whitelisted-emails'] as const,
  vms: ['admin', 'vms'] as const,
  workspaces: ['admin', 'workspaces'] as const,
  redis: ['admin', 'redis'] as const,
  systemLogs: ['admin', 'system-logs'] as const,
  auditLog: ['admin', 'audit-log'] as const,
  cadvisorMachine: ['admin', 'cadvisor-machine'] as const,
  cadvisorContainers: ['admin', 'cadvisor-containers'] as const,
};

/**
 * A tab's data, loaded when the tab is first shown (spec: lazily on first visit) and again on its
 * Refresh and after its actions. Kept only while the tab is mounted, as the panel shows it; never
 * retried, since a 401 sends the panel back to its password form and a failure shows the tab's banner.
 */
function useAdminQuery<T>(queryKey: readonly string[], queryFn: () => Promise<T>) {
  return useQuery({ queryKey, queryFn, retry: false, staleTime: 0, gcTime: 0 });
}

export const useAdminStats = () => useAdminQuery(adminKeys.stats, fetchAdminStats);
export const useAdminUsers = () => useAdminQuery(adminKeys.users, () => fetchAdminUsers('all'));

async function fetchWhitelistUsers(): Promise<{ waiting: AdminUser[]; whitelisted: AdminUser[] }> {
  const [waiting, whitelisted] = await Promise.all([
    fetchAdminUsers('waiting-list'),
    fetchAdminUsers('whitelisted'),
  ]);
  return { waiting, whitelisted };
}
export const useWhitelistUsers = () => useAdminQuery(adminKeys.whitelistUsers, fetchWhitelistUsers);

export const useWhitelistedEmails = () => useAdminQuery(adminKeys.whitelistedEmails, fetchWhitelistedEmails);
export const useAdminVms = () => useAdminQuery(adminKeys.vms, fetchAdminVms);
export const useAdminWorkspaces = () => useAdminQuery(adminKeys.workspaces, fetchAdminWorkspaces);
export const useAuditLog = () => useAdminQuery(adminKeys.auditLog, fetchAuditLog);
export const useRedisInfo = () => useAdminQuery(adminKeys.redis, fetchRedisInfo);

async function fetchSystemLogs(): Promise<{ services: SystemLogServices; tails: Record<string, string[]> }> {
  const [services, backend, frontend] = await Promise.all([
    fetchSystemLogServices(),
    fetchSystemLogTail('backend'),
    fetchSystemLogTail('frontend'),
  ]);
  return { services, tails: { backend, frontend } };
}
export const useSystemLogs = () => useAdminQuery(adminKeys.systemLogs, fetchSystemLogs);
