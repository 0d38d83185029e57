import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { AdminNotifier } from './adminTabTypes';

/**
 * A tab's query as the tab shows it: `loading` while it loads or reloads, `reload` for Refresh and
 * after actions. A failure shows the tab's load banner (once per failure) and keeps whatever was
 * shown before.
 */
export function useAdminLoad<T>(query: UseQueryResult<T>, failurePrefix: string, notify: AdminNotifier) {
  const latest = useRef({ failurePrefix, notify });
  latest.current = { failurePrefix, notify };
  const { data, error, errorUpdatedAt, isFetching, refetch } = query;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one banner per failure, told apart by its time
  useEffect(() => {
    if (error) latest.current.notify.failure(latest.current.failurePrefix, error);
  }, [errorUpdatedAt]);

  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  return { data, loading: isFetching, reload };
}
