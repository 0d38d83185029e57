import { type QueryKey, useQuery } from '@tanstack/react-query';

/** The options the workspace screens vary: shown only once something is on, polled, no retry, always stale. */
export interface WorkspaceQueryOptions {
  enabled?: boolean;
  refetchInterval?: number;
  retry?: false;
  staleTime?: number;
}

/** One workspace's data: `fetch(workspace)`, cached under `key(workspace)`. */
export function useWorkspaceQuery<T>(
  key: (workspace: string) => QueryKey,
  fetch: (workspace: string) => Promise<T>,
  workspace: string,
  options: WorkspaceQueryOptions = {},
) {
  return useQuery({ queryKey: key(workspace), queryFn: () => fetch(workspace), ...options });
}
