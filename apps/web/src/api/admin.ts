import type {
  AdminStats,
  AdminUser,
  AdminVm,
  AdminWorkspace,
  AuditLogEntry,
  BulkWhitelistResult,
  ImpersonationResult,
  RedisFlushType,
  RedisInfo,
  RouteResponse,
  Routes,
  SystemLogService,
  WhitelistedEmail,
  WhitelistUserResult,
} from '@slipway/contract';
import { api } from './client';
import { callRoute, routeUrl } from './routeClient';

/**
 * The admin panel's calls (spec §7 'Admin'). Every call is `silentUnauthorized`: a 401 here means the
 * admin session is missing or gone, which the panel handles itself (back to the password form); it must
 * not sign the user out of the main app or leave /admin.
 */
const silent = { silentUnauthorized: true } as const;

export async function checkAdminSession(): Promise<boolean> {
  const { isAdmin } = await callRoute('adminSessionStatus', { config: silent });
  return isAdmin;
}

/** A wrong password answers 401 (thrown); the contract's success answer is always `{success: true}`. */
export async function adminLogin(adminPassword: string): Promise<RouteResponse<Routes['adminSignIn']>> {
  return callRoute('adminSignIn', { body: { adminPassword }, config: silent });
}

export async function adminLogout(): Promise<void> {
  await callRoute('adminSignOut', { config: silent });
}

export async function fetchAdminStats(): Promise<AdminStats> {
  return callRoute('adminStats', { config: silent });
}

const USER_LISTS = {
  all: 'adminUsers',
  'waiting-list': 'adminWaitingList',
  whitelisted: 'adminWhitelistedUsers',
} as const;
export type AdminUserListKind = keyof typeof USER_LISTS;
export async function fetchAdminUsers(kind: AdminUserListKind): Promise<AdminUser[]> {
  return (await callRoute(USER_LISTS[kind], { config: silent })).users;
}

export async function whitelistUser(id: string): Promise<WhitelistUserResult> {
  return callRoute('whitelistUser', { params: { id }, config: silent });
}

export async function removeUserFromWhitelist(id: string): Promise<void> {
  await callRoute('removeFromWhitelist', { params: { id }, config: silent });
}

/** The body is the bare array of user ids (spec §7). */
export async function bulkWhitelistUsers(ids: string[]): Promise<BulkWhitelistResult> {
  return callRoute('bulkWhitelist', { body: ids, config: silent });
}

export async function impersonateUser(id: string): Promise<ImpersonationResult> {
  return callRoute('impersonate', { params: { id }, config: silent });
}

export async function fetchWhitelistedEmails(): Promise<WhitelistedEmail[]> {
  return (await callRoute('whitelistEmails', { config: silent })).emails;
}

export async function addWhitelistedEmail(input: { email: string; notes: string | null }): Promise<void> {
  await callRoute('addWhitelistEmail', { body: { ...input, added_by: 'admin' }, config: silent });
}

export async function removeWhitelistedEmail(email: string): Promise<void> {
  await callRoute('removeWhitelistEmail', { params: { email }, config: silent });
}

export async function fetchAdminVms(): Promise<{ total_vms: number; vms: AdminVm[] }> {
  return callRoute('adminVms', { config: silent });
}

export async function deleteAdminVm(name: string): Promise<void> {
  await callRoute('deleteVm', { params: { vm_name: name }, config: silent });
}

export async function fetchAdminWorkspaces(): Promise<{
  total_workspaces: number;
  workspaces: AdminWorkspace[];
}> {
  return callRoute('adminWorkspaces', { config: silent });
}

export type SystemLogServices = RouteResponse<Routes['systemLogs']>['services'];
export async function fetchSystemLogServices(): Promise<SystemLogServices> {
  return (await callRoute('systemLogs', { config: silent })).services;
}

/** Spec §9: 100 lines are requested per service. */
export const SYSTEM_LOG_LINES_REQUESTED = 100;
export async function fetchSystemLogTail(service: SystemLogService): Promise<string[]> {
  const tail = await callRoute('systemLogTail', {
    params: { service },
    query: { lines: SYSTEM_LOG_LINES_REQUESTED },
    config: silent,
  });
  return tail.logs;
}

/** The newest entries of the audit trail, newest first. */
export const AUDIT_LOG_ENTRIES_REQUESTED = 200;
export async function fetchAuditLog(): Promise<AuditLogEntry[]> {
  const { entries } = await callRoute('auditLog', {
    query: { limit: AUDIT_LOG_ENTRIES_REQUESTED },
    config: silent,
  });
  return entries;
}

export async function fetchRedisInfo(): Promise<RedisInfo> {
  return callRoute('redisInfo', { config: silent });
}

export async function flushRedis(type: RedisFlushType): Promise<{ message: string }> {
  return callRoute('redisFlush', { body: { type }, config: silent });
}

/** An answer of the monitoring proxy, read as text so HTML can be told from JSON. */
export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

/** The monitoring proxy is read as text: an HTML answer (a login page, a proxy error) is an error. */
async function fetchRaw(route: 'cadvisorMachine' | 'cadvisorContainers'): Promise<RawResponse> {
  const response = await api.get<string>(routeUrl(route), {
    ...silent,
    responseType: 'text',
    transformResponse: (body: unknown) => body,
    validateStatus: () => true,
  });
  const contentType = response.headers['content-type'];
  return {
    status: response.status,
    contentType: typeof contentType === 'string' ? contentType : '',
    body: typeof response.data === 'string' ? response.data : JSON.stringify(response.data ?? ''),
  };
}

export const fetchMachineRaw = () => fetchRaw('cadvisorMachine');
export const fetchContainersRaw = () => fetchRaw('cadvisorContainers');
