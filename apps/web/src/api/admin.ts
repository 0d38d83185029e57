import type {
  AdminStats,
  AdminUser,
  AdminUserList,
  AdminVm,
  AdminWorkspace,
  BulkWhitelistResult,
  ImpersonationResult,
  RedisFlushType,
  RedisInfo,
  SystemLogService,
  SystemLogStatus,
  WhitelistedEmail,
  WhitelistUserResult,
} from '@slipway/contract';
import { api } from './client';

/**
 * The admin panel's calls (spec §7 'Admin'). Every call is `silentUnauthorized`: a 401 here means the
 * admin session is missing or gone, which the panel handles itself (back to the password form); it must
 * not sign the user out of the main app or leave /admin.
 */
const silent = { silentUnauthorized: true } as const;
const base = '/api/admin';

export async function checkAdminSession(): Promise<boolean> {
  const { data } = await api.get<{ isAdmin: boolean }>(`${base}/session-status`, silent);
  return data.isAdmin === true;
}

export async function adminLogin(adminPassword: string): Promise<{ success: boolean; error?: string }> {
  const { data } = await api.post<{ success: boolean; error?: string }>(
    `${base}/auth`,
    { adminPassword },
    silent,
  );
  return data;
}

export async function adminLogout(): Promise<void> {
  await api.post(`${base}/logout`, undefined, silent);
}

export async function fetchAdminStats(): Promise<AdminStats> {
  return (await api.get<AdminStats>(`${base}/stats`, silent)).data;
}

export type AdminUserListKind = 'all' | 'waiting-list' | 'whitelisted';
export async function fetchAdminUsers(kind: AdminUserListKind): Promise<AdminUser[]> {
  const path = kind === 'all' ? '/users' : `/users/${kind}`;
  const { data } = await api.get<AdminUserList | AdminUser[]>(`${base}${path}`, silent);
  return Array.isArray(data) ? data : (data.users ?? []);
}

const userPath = (id: string) => `${base}/users/${encodeURIComponent(id)}/whitelist`;

export async function whitelistUser(id: string): Promise<WhitelistUserResult> {
  return (await api.post<WhitelistUserResult>(userPath(id), undefined, silent)).data;
}

export async function removeUserFromWhitelist(id: string): Promise<void> {
  await api.delete(userPath(id), silent);
}

/** The body is the bare array of user ids (spec §7). */
export async function bulkWhitelistUsers(ids: string[]): Promise<BulkWhitelistResult> {
  return (await api.post<BulkWhitelistResult>(`${base}/users/bulk-whitelist`, ids, silent)).data;
}

export async function impersonateUser(id: string): Promise<ImpersonationResult> {
  return (
    await api.post<ImpersonationResult>(`${base}/impersonate/${encodeURIComponent(id)}`, undefined, silent)
  ).data;
}

export async function fetchWhitelistedEmails(): Promise<WhitelistedEmail[]> {
  const { data } = await api.get<{ emails: WhitelistedEmail[] } | WhitelistedEmail[]>(
    `${base}/whitelist/emails`,
    silent,
  );
  return Array.isArray(data) ? data : (data.emails ?? []);
}

export async function addWhitelistedEmail(input: { email: string; notes: string | null }): Promise<void> {
  await api.post(`${base}/whitelist/emails`, { ...input, added_by: 'admin' }, silent);
}

export async function removeWhitelistedEmail(email: string): Promise<void> {
  await api.delete(`${base}/whitelist/emails/${encodeURIComponent(email)}`, silent);
}

export async function fetchAdminVms(): Promise<{ total_vms: number; vms: AdminVm[] }> {
  return (await api.get<{ total_vms: number; vms: AdminVm[] }>(`${base}/vms`, silent)).data;
}

export async function deleteAdminVm(name: string): Promise<void> {
  await api.delete(`${base}/vms/${encodeURIComponent(name)}`, silent);
}

export async function fetchAdminWorkspaces(): Promise<{
  total_workspaces: number;
  workspaces: AdminWorkspace[];
}> {
  return (
    await api.get<{ total_workspaces: number; workspaces: AdminWorkspace[] }>(`${base}/workspaces`, silent)
  ).data;
}

export type SystemLogServices = Record<string, SystemLogStatus>;
export async function fetchSystemLogServices(): Promise<SystemLogServices> {
  const { data } = await api.get<{ services: SystemLogServices } | SystemLogServices>(`${base}/logs`, silent);
  return (
    'services' in data && typeof data.services === 'object' ? data.services : data
  ) as SystemLogServices;
}

/** Spec §9: 100 lines are requested per service. */
export const SYSTEM_LOG_LINES_REQUESTED = 100;
export async function fetchSystemLogTail(service: SystemLogService): Promise<string[]> {
  const { data } = await api.get<{ logs: string[] }>(`${base}/logs/${service}`, {
    ...silent,
    params: { lines: SYSTEM_LOG_LINES_REQUESTED },
  });
  return Array.isArray(data.logs) ? data.logs : [];
}

export async function fetchRedisInfo(): Promise<RedisInfo> {
  return (await api.get<RedisInfo>(`${base}/redis/info`, silent)).data;
}

export async function flushRedis(type: RedisFlushType): Promise<{ message: string }> {
  return (await api.post<{ message: string }>(`${base}/redis/flush`, { type }, silent)).data;
}

/** An answer of the monitoring proxy, read as text so HTML can be told from JSON. */
export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

/** The monitoring proxy is read as text: an HTML answer (a login page, a proxy error) is an error. */
async function fetchRaw(path: string): Promise<RawResponse> {
  const response = await api.get<string>(`${base}/cadvisor/api/v1.3/${path}`, {
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

export const fetchMachineRaw = () => fetchRaw('machine');
export const fetchContainersRaw = () => fetchRaw('containers');
