import { type QueryKey, useQuery } from '@tanstack/react-query';

/** The options the workspace screens vary: shown only once something is on, polled, no retry, always stale. */
export interface WorkspaceQueryOptions<T = unknown> {
  enabled?: boolean;
  /** Milliseconds between reads, or chosen from the data last read (false: no polling for now). */
  refetchInterval?: number | ((data: T | undefined) => number | false);
  retry?: false;
  staleTime?: number;
}

/** What a screen that polls a workspace's list chooses: how often, from what it read last. */
export type Polling<T> = Pick<WorkspaceQueryOptions<T>, 'refetchInterval'>;

/** One workspace's data: `fetch(workspace)`, cached under `key(workspace)`. */
export function useWorkspaceQuery<T>(
  key: (workspace: string) => QueryKey,
  fetch: (workspace: string) => Promise<T>,
  workspace: string,
  options: WorkspaceQueryOptions<T> = {},
) {
  const { refetchInterval, ...rest } = options;
  return useQuery({
    queryKey: key(workspace),
    queryFn: () => fetch(workspace),
    ...rest,
    ...(refetchInterval === undefined
      ? {}
      : {
          refetchInterval:
            typeof refetchInterval === 'function'
              ? (query: { state: { data: T | undefined } }) => refetchInterval(query.state.data)
              : refetchInterval,
        }),
  });
}
