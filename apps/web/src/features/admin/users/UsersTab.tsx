import { UserCheck } from 'lucide-react';
import { useState } from 'react';
import { useAdminUsers } from '../../../api/adminQueries';
import { Button } from '../../../components/ui';
import { countOf, NOUNS } from '../../../lib/plural';
import { LOAD_FAILURE } from '../adminMessages';
import type { AdminTabProps } from '../adminTabTypes';
import { ListSection } from '../TabSection';
import { useAdminLoad } from '../useAdminLoad';
import { ImpersonationDialog } from './ImpersonationDialog';
import { UserTable } from './UserTable';
import { useUserActions } from './useUserActions';

/** All Users: whitelist or un-whitelist each user, select several to whitelist at once, impersonate. */
export function UsersTab({ notify, onChanged }: AdminTabProps) {
  const load = useAdminLoad(useAdminUsers(), LOAD_FAILURE.users, notify);
  const users = load.data;
  const actions = useUserActions({ notify, reload: load.reload, onChanged });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  // Only users still on screen count (a refresh may have removed some).
  const chosen = (users ?? []).filter((user) => selected.has(user.id)).map((user) => user.id);

  return (
    <>
      <ListSection
        title="All Users"
        description={users ? countOf(users.length, NOUNS.user) : undefined}
        load={load}
        rows={users}
        emptyText="No users yet"
        actions={
          <Button
            size="sm"
            icon={UserCheck}
            disabled={chosen.length === 0}
            loading={actions.busy === 'bulk'}
            onClick={() => actions.bulkWhitelist(chosen, () => setSelected(new Set()))}
          >
            Whitelist Selected ({chosen.length})
          </Button>
        }
      >
        <UserTable
          label="All users"
          users={users ?? []}
          actions={actions}
          selected={selected}
          onToggle={toggle}
        />
      </ListSection>
      <ImpersonationDialog result={actions.impersonation} onClose={actions.closeImpersonation} />
    </>
  );
}
