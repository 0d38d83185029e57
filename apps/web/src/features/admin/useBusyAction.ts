import { useState } from 'react';
import type { AdminNotifier } from './adminTabTypes';

/**
 * One admin action at a time: `busy` names the running one (its button spins), a failure shows the
 * tab's error banner with `failurePrefix`.
 */
export function useBusyAction(notify: AdminNotifier) {
  const [busy, setBusy] = useState<string | null>(null);

  async function run(key: string, failurePrefix: string, action: () => Promise<void>) {
    setBusy(key);
    try {
      await action();
    } catch (error) {
      notify.failure(failurePrefix, error);
    } finally {
      setBusy(null);
    }
  }

  return { busy, run };
}
