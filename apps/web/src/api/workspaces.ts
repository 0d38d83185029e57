import type { WorkspaceLogEntry, WorkspaceSummary } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { httpStatus } from './errors';
import { callRoute, routeUrl } from './routeClient';

export const workspacesKey = ['workspaces'] as const;

/** GET /api/user-workspaces. The spec's message carries the HTTP status. */
export async function fetchUserWorkspaces(): Promise<WorkspaceSummary[]> {
  try {
    return await callRoute('listWorkspaces');
  } catch (error) {
    throw new Error(`Failed to fetch workspaces: ${httpStatus(error) ?? 'network error'}`);
  }
}

/** The signed-in user's workspaces (dashboard, monitoring); a failure shows at once, with its status. */
export function useUserWorkspaces() {
  return useQuery({ queryKey: workspacesKey, queryFn: fetchUserWorkspaces, retry: false });
}

export async function deleteWorkspace(name: string): Promise<void> {
  await callRoute('deleteWorkspace', { params: { name } });
}

/** GET /api/workspace-logs/{name}: the stored history, oldest first. */
export async function fetchWorkspaceLogs(name: string, service?: string): Promise<WorkspaceLogEntry[]> {
  const { logs } = await callRoute('workspaceLogs', {
    params: { name },
    query: service ? { service } : undefined,
  });
  return logs;
}

/** GET /api/workspace-services/{name}: the compose service names. */
export async function fetchWorkspaceServices(name: string): Promise<string[]> {
  return (await callRoute('workspaceServices', { params: { name } })).services;
}

/** The XSRF token the server set as a cookie; fetch() does not copy it into a header by itself. */
function xsrfToken(): string | undefined {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/**
 * GET /api/workspace-logs-stream/{name} read with fetch streaming. Calls `onLine` with each raw line
 * (still carrying its 'data: ' prefix) until the stream ends or `signal` aborts.
 */
export async function streamWorkspaceLogs(
  name: string,
  options: { follow: boolean; service: string; signal: AbortSignal; onLine: (line: string) => void },
): Promise<void> {
  const query = new URLSearchParams({
    follow: String(options.follow),
    initial_lines: '50',
    service: options.service,
  });
  const token = xsrfToken();
  const response = await fetch(`${routeUrl('workspaceLogStream', { name })}?${query}`, {
    credentials: 'include',
    headers: { Accept: 'text/event-stream', ...(token ? { 'X-XSRF-TOKEN': token } : {}) },
    signal: options.signal,
  });
  if (!response.ok || !response.body) throw new Error(`Failed to start log stream: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  }
  if (pending) options.onLine(pending);
}

/** GET /api/github/repos/{owner}/{repo}/branches, first page: the redeploy dialog's branch choice. */
export async function fetchRepoBranches(owner: string, repo: string): Promise<string[]> {
  const branches = await callRoute('listBranches', {
    params: { owner, repo },
    query: { page: 1, per_page: 100 },
  });
  return branches.map((branch) => branch.name);
}

export interface RedeployRequest {
  sessionId: string;
  owner: string;
  repo: string;
  branch: string;
  vmSize: string;
}

/**
 * POST /api/workflow/deployment/start with workflowType 'redeploy'. The spec reads the body as JSON on
 * success and as the error text otherwise, so the answer is taken as text whatever its status.
 */
export async function startRedeploy(request: RedeployRequest): Promise<void> {
  // Read as text whatever the status (see above), so not through callRoute's typed JSON.
  const response = await api.post<string>(
    routeUrl('startDeployment'),
    { ...request, workflowType: 'redeploy' },
    { responseType: 'text', validateStatus: () => true, sameAnswerIfRepeated: true },
  );
  const text = typeof response.data === 'string' ? response.data : '';
  if (response.status < 200 || response.status >= 300) {
    throw new Error(errorTextOf(text) || 'Failed to start redeploy');
  }
  const result = parseObject(text) as { success?: boolean; error?: string };
  if (result.success === false) throw new Error(result.error || 'Failed to start redeploy');
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text) ?? {};
  } catch {
    return {};
  }
}

/** The server answers errors as JSON {error, detail}; show the readable part rather than raw JSON. */
function errorTextOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown };
    if (typeof body.detail === 'string' && body.detail) return body.detail;
    if (typeof body.error === 'string' && body.error) return body.error;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return text.trim();
}

/** GET /api/workspace-details/{name}, kept fresh every 10 s (the dashboard's service states follow crashes). */
export function useWorkspaceDetails(name: string) {
  return useQuery({
    queryKey: ['workspace-details', name],
    queryFn: () => callRoute('workspaceDetails', { params: { name } }),
    refetchInterval: 10_000,
  });
}

export function useWorkspaceServices(name: string) {
  return useQuery({ queryKey: ['workspace-services', name], queryFn: () => fetchWorkspaceServices(name) });
}

/** The stored history, read fresh each time `refreshKey` changes (the log viewer's Refresh). */
export function useWorkspaceLogHistory(name: string, service: string, refreshKey: number) {
  return useQuery({
    queryKey: ['workspace-logs', name, service, refreshKey],
    queryFn: () => fetchWorkspaceLogs(name, service || undefined),
    staleTime: 0,
  });
}

/** The redeploy dialog's branch choice, read when the dialog opens; no retry. */
export function useRedeployBranches(target: { owner: string; repo: string } | null, open: boolean) {
  return useQuery({
    queryKey: ['branches', target?.owner, target?.repo],
    queryFn: () => fetchRepoBranches(target?.owner ?? '', target?.repo ?? ''),
    enabled: open && target !== null,
    retry: false,
  });
}
