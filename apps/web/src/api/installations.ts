import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** The spec uses only the length of this list; its fields are not described. */
export type GithubInstallation = Record<string, unknown>;

/** GET /api/github/installations. Any failure (including 404 while the endpoint is missing) means none. */
export async function fetchInstallations(): Promise<GithubInstallation[]> {
  try {
    const { data } = await api.get<unknown>('/api/github/installations');
    return Array.isArray(data) ? (data as GithubInstallation[]) : [];
  } catch {
    return [];
  }
}

export function useInstallations() {
  return useQuery({ queryKey: ['github', 'installations'], queryFn: fetchInstallations });
}
