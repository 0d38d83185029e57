import type { EnvVariable } from '@slipway/contract';
import { api } from './client';
import { httpStatus } from './errors';

const path = (workspace: string) => `/api/env-variables/${encodeURIComponent(workspace)}`;

/** GET /api/env-variables/{ws}; a 404 means the workspace has none yet. */
export async function fetchWorkspaceEnv(workspace: string): Promise<EnvVariable[]> {
  try {
    const { data } = await api.get<{ variables?: EnvVariable[] }>(path(workspace));
    return data.variables ?? [];
  } catch (error) {
    if (httpStatus(error) === 404) return [];
    throw error;
  }
}

export async function updateWorkspaceEnvValue(workspace: string, key: string, value: string): Promise<void> {
  await api.put(`${path(workspace)}/${encodeURIComponent(key)}`, { value });
}

export async function deleteWorkspaceEnvVariable(workspace: string, key: string): Promise<void> {
  await api.delete(`${path(workspace)}/${encodeURIComponent(key)}`);
}

export async function uploadWorkspaceEnv(workspace: string, variables: EnvVariable[]): Promise<void> {
  await api.post(`${path(workspace)}/upload`, { variables });
}

export async function deleteAllWorkspaceEnv(workspace: string): Promise<void> {
  await api.delete(path(workspace));
}
