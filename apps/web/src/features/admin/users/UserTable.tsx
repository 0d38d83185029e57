import type { AdminUser } from '@slipway/contract';
import { DataTable } from '../../../components/DataTable';
import { Avatar, Badge, Button } from '../../../components/ui';
import { formatDateTime } from '../../../lib/dates';
import { fullName } from '../adminFormat';
import type { UserActions } from './useUserActions';

function UserStatus({ user }: { user: AdminUser }) {
  if (user.whitelisted) return <Badge tone="success">Whitelisted</Badge>;
  if (user.on_waiting_list) return <Badge tone="warning">Waiting list</Badge>;
  return <Badge>Not whitelisted</Badge>;
}

/** Users with their access state and the per-user actions; optionally selectable for bulk whitelisting. */
export function UserTable({
  users,
  actions,
  selected,
  onToggle,
  label,
}: {
  users: AdminUser[];
  actions: UserActions;
  selected?: ReadonlySet<string>;
  onToggle?: (id: string) => void;
  label: string;
}) {
  const selectable = selected !== undefined && onToggle !== undefined;
  return (
    <DataTable
      label={label}
      rows={users}
      rowKey={(user) => user.id}
      rowAttributes={(user) => ({ 'data-testid': `user-row-${user.login}` })}
      columns={[
        selectable && {
          header: 'Select',
          headerContent: <span className="sr-only">Select</span>,
          cell: (user) => (
            <input
              type="checkbox"
              aria-label={`Select ${user.login}`}
              className="h-4 w-4 rounded border-zinc-300 accent-accent-600"
              checked={selected.has(user.id)}
              onChange={() => onToggle(user.id)}
            />
          ),
        },
        {
          header: 'User',
          cell: (user) => (
            <div className="flex items-center gap-3">
              <Avatar src={user.avatar_url} name={user.login} size="sm" />
              <div className="min-w-0">
                <p className="font-medium text-zinc-900">@{user.login}</p>
                {fullName(user) && <p className="text-xs text-zinc-500">{fullName(user)}</p>}
              </div>
            </div>
          ),
        },
        { header: 'Email', cell: (user) => user.email ?? <span className="text-zinc-400">No email</span> },
        { header: 'Status', cell: (user) => <UserStatus user={user} /> },
        { header: 'Joined', cell: (user) => formatDateTime(user.created_at) },
        { header: 'Last login', cell: (user) => formatDateTime(user.last_login) },
        {
          header: 'Actions',
          alignEnd: true,
          cell: (user) => <UserActionButtons user={user} actions={actions} />,
        },
      ]}
    />
  );
}

function UserActionButtons({ user, actions }: { user: AdminUser; actions: UserActions }) {
  return (
    <div className="flex justify-end gap-2">
      {user.whitelisted ? (
        <Button
          size="sm"
          variant="secondary"
          loading={actions.busy === `remove:${user.id}`}
          onClick={() => actions.removeFromWhitelist(user)}
        >
          Remove from whitelist
        </Button>
      ) : (
        <Button
          size="sm"
          loading={actions.busy === `whitelist:${user.id}`}
          onClick={() => actions.whitelist(user)}
        >
          Whitelist
        </Button>
      )}
      <Button
        size="sm"
        variant="ghost"
        loading={actions.busy === `impersonate:${user.id}`}
        onClick={() => actions.impersonate(user)}
      >
        Impersonate
      </Button>
    </div>
  );
}
