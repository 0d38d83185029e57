import { useWhitelistUsers } from '../../../api/adminQueries';
import { LOAD_FAILURE } from '../adminMessages';
import type { AdminTabProps } from '../adminTabTypes';
import { TabBody, TabSection } from '../TabSection';
import { useAdminLoad } from '../useAdminLoad';
import { EmailWhitelistSection } from './EmailWhitelistSection';
import { ImpersonationDialog } from './ImpersonationDialog';
import { UserTable } from './UserTable';
import { useUserActions } from './useUserActions';

/** Whitelist Management: who waits, who is in, and the emails let in when they complete their profile. */
export function WhitelistTab(props: AdminTabProps) {
  const { notify, onChanged } = props;
  const { data, loading, reload } = useAdminLoad(useWhitelistUsers(), LOAD_FAILURE.whitelistUsers, notify);
  const actions = useUserActions({ notify, reload, onChanged });

  return (
    <div className="space-y-6">
      <TabSection
        title="Waiting List"
        description={data ? `${data.waiting.length} waiting` : undefined}
        loading={loading}
        onRefresh={reload}
      >
        <TabBody
          loading={loading}
          hasData={data !== undefined}
          empty={data?.waiting.length === 0}
          emptyText="Nobody is on the waiting list"
        >
          <UserTable label="Waiting list" users={data?.waiting ?? []} actions={actions} />
        </TabBody>
      </TabSection>
      <TabSection
        title="Whitelisted Users"
        description={data ? `${data.whitelisted.length} whitelisted` : undefined}
        loading={loading}
        onRefresh={reload}
      >
        <TabBody
          loading={loading}
          hasData={data !== undefined}
          empty={data?.whitelisted.length === 0}
          emptyText="No whitelisted users yet"
        >
          <UserTable label="Whitelisted users" users={data?.whitelisted ?? []} actions={actions} />
        </TabBody>
      </TabSection>
      <EmailWhitelistSection
        notify={notify}
        onChanged={() => {
          onChanged();
          void reload();
        }}
      />
      <ImpersonationDialog result={actions.impersonation} onClose={actions.closeImpersonation} />
    </div>
  );
}
