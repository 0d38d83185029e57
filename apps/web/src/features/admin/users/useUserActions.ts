import type { AdminUser, ImpersonationResult } from '@slipway/contract';
import { useState } from 'react';
import {
  bulkWhitelistUsers,
  impersonateUser,
  removeUserFromWhitelist,
  whitelistUser,
} from '../../../api/admin';
import { ACTION_FAILURE, bulkSummaryText, NOTICE_MS, whitelistSuccessText } from '../adminMessages';
import type { AdminNotifier } from '../adminTabTypes';
import { useBusyAction } from '../useBusyAction';

/**
 * Whitelist, un-whitelist, bulk whitelist and impersonate, shared by the All Users and Whitelist tabs.
 * Changes reload the tab (`reload`) and the stats (`onChanged`).
 */
export function useUserActions(deps: {
  notify: AdminNotifier;
  reload: () => Promise<void>;
  onChanged: () => void;
}) {
  const { notify } = deps;
  const { busy, run: runBusy } = useBusyAction(notify);
  const [impersonation, setImpersonation] = useState<ImpersonationResult | null>(null);

  const run = (key: string, action: () => Promise<void>, failurePrefix: string, changes = true) =>
    runBusy(key, failurePrefix, async () => {
      await action();
      if (changes) {
        deps.onChanged();
        await deps.reload();
      }
    });

  return {
    busy,
    impersonation,
    closeImpersonation: () => setImpersonation(null),
    whitelist: (user: AdminUser) =>
      run(
        `whitelist:${user.id}`,
        async () => notify.notice(whitelistSuccessText(await whitelistUser(user.id)), NOTICE_MS.whitelist),
        ACTION_FAILURE.whitelist,
      ),
    removeFromWhitelist: (user: AdminUser) =>
      run(`remove:${user.id}`, () => removeUserFromWhitelist(user.id), ACTION_FAILURE.removeFromWhitelist),
    bulkWhitelist: (ids: string[], done: () => void) =>
      run(
        'bulk',
        async () => {
          notify.notice(bulkSummaryText(await bulkWhitelistUsers(ids)), NOTICE_MS.bulkWhitelist);
          done();
        },
        ACTION_FAILURE.bulkWhitelist,
      ),
    impersonate: (user: AdminUser) =>
      run(
        `impersonate:${user.id}`,
        async () => setImpersonation(await impersonateUser(user.id)),
        ACTION_FAILURE.impersonate,
        false,
      ),
  };
}

export type UserActions = ReturnType<typeof useUserActions>;
