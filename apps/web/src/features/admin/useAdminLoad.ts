import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminNotifier } from './adminTabTypes';

/**
 * Loads a tab's data when the tab is first shown (spec: lazily on first visit) and on `reload`.
 * A failure shows the tab's load banner and keeps whatever was shown before.
 */
export function useAdminLoad<T>(load: () => Promise<T>, failurePrefix: string, notify: AdminNotifier) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const latest = useRef({ load, failurePrefix, notify });
  latest.current = { load, failurePrefix, notify };

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await latest.current.load());
    } catch (error) {
      latest.current.notify.failure(latest.current.failurePrefix, error);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, loading, reload };
}
