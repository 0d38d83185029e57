import { useWhitelistUsers } from '../../../api/adminQueries';
import { LOAD_FAILURE } from '../adminMessages';
import type { AdminTabProps } from '../adminTabTypes';
import { ListSection } from '../TabSection';
import { useAdminLoad } from '../useAdminLoad';
import { EmailWhitelistSection } from './EmailWhitelistSection';
import { ImpersonationDialog } from './ImpersonationDialog';
import { UserTable } from './UserTable';
import { useUserActions } from './useUserActions';

/** Whitelist Management: who waits, who is in, and the emails let in when they complete their profile. */
export function WhitelistTab(props: AdminTabProps) {
  const { notify, onChanged } = props;
  const load = useAdminLoad(useWhitelistUsers(), LOAD_FAILURE.whitelistUsers, notify);
  const { data, reload } = load;
  const actions = useUserActions({ notify, reload, onChanged });
  const lists = [
    {
      title: 'Waiting List',
      users: data?.waiting,
      counted: 'waiting',
      emptyText: 'Nobody is on the waiting list',
      label: 'Waiting list',
    },
    {
      title: 'Whitelisted Users',
      users: data?.whitelisted,
      counted: 'whitelisted',
      emptyText: 'No whitelisted users yet',
      label: 'Whitelisted users',
    },
  ];

  return (
    <div className="space-y-6">
      {lists.map((list) => (
        <ListSection
          key={list.title}
          title={list.title}
          description={list.users ? `${list.users.length} ${list.counted}` : undefined}
          load={load}
          rows={list.users}
          emptyText={list.emptyText}
        >
          <UserTable label={list.label} users={list.users ?? []} actions={actions} />
        </ListSection>
      ))}
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
