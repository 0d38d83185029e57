import type { EnvVariable, EnvVariablesSaved } from '@slipway/contract';
import { httpStatus } from './errors';
import { callRoute } from './routeClient';
import { useWorkspaceQuery } from './workspaceQuery';

/** GET /api/env-variables/{workspace}; a 404 means the workspace has none yet. */
export async function fetchEnvVariables(workspace: string): Promise<EnvVariable[]> {
  try {
    return (await callRoute('listEnvVariables', { params: { workspace } })).variables;
  } catch (error) {
    if (httpStatus(error) === 404) return [];
    throw error;
  }
}

export const envVariablesKey = (workspace: string) => ['env-variables', workspace] as const;

/** A workspace's variables, loaded again on every visit (the deploy wizard uploads them too). */
export const useEnvVariables = (workspace: string) =>
  useWorkspaceQuery(envVariablesKey, fetchEnvVariables, workspace, { staleTime: 0 });

/** POST /api/env-variables/{workspace}/upload: the deploy wizard's and the settings' one upload. */
export function uploadEnvVariables(workspace: string, variables: EnvVariable[]): Promise<EnvVariablesSaved> {
  return callRoute('uploadEnvVariables', { params: { workspace }, body: { variables } });
}

export async function updateEnvVariable(workspace: string, key: string, value: string): Promise<void> {
  await callRoute('updateEnvVariable', { params: { workspace, key }, body: { value } });
}

export async function deleteEnvVariable(workspace: string, key: string): Promise<void> {
  await callRoute('deleteEnvVariable', { params: { workspace, key } });
}

export async function deleteAllEnvVariables(workspace: string): Promise<void> {
  await callRoute('deleteEnvVariables', { params: { workspace } });
}
