import type { Installation } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from './routeClient';

/** GET /api/github/installations. Any failure (including 404 while the endpoint is missing) means none. */
export async function fetchInstallations(): Promise<Installation[]> {
  try {
    return await callRoute('listInstallations');
  } catch {
    return [];
  }
}

export function useInstallations() {
  return useQuery({ queryKey: ['github', 'installations'], queryFn: fetchInstallations });
}
