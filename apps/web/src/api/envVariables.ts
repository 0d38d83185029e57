import type { EnvVariable, EnvVariablesSaved } from '@slipway/contract';
import axios from 'axios';
import { api } from './client';

/**
 * POST /api/env-variables/{workspace}/upload. On failure throws an Error whose message is the
 * spec's alert text: 'Error uploading variables: ' plus the server detail ('Upload failed' if
 * none), or plus the network error's message.
 */
export async function uploadEnvVariables(
  workspace: string,
  variables: EnvVariable[],
): Promise<EnvVariablesSaved> {
  try {
    const { data } = await api.post<EnvVariablesSaved>(
      `/api/env-variables/${encodeURIComponent(workspace)}/upload`,
      { variables },
    );
    return data;
  } catch (error) {
    let reason = error instanceof Error ? error.message : 'Upload failed';
    if (axios.isAxiosError<{ detail?: unknown }>(error) && error.response) {
      const detail = error.response.data?.detail;
      reason = typeof detail === 'string' && detail ? detail : 'Upload failed';
    }
    throw new Error(`Error uploading variables: ${reason}`, { cause: error });
  }
}
