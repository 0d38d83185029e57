import type { AdminUser } from '@slipway/contract';
import { Avatar, Badge, Button } from '../../../components/ui';
import { formatDateTime, fullName } from '../adminFormat';
import { tableClasses as t } from '../TabSection';
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
    <div className={t.wrap}>
      <table className={t.table} aria-label={label}>
        <thead className={t.head}>
          <tr>
            {selectable && (
              <th className={t.th}>
                <span className="sr-only">Select</span>
              </th>
            )}
            <th className={t.th}>User</th>
            <th className={t.th}>Email</th>
            <th className={t.th}>Status</th>
            <th className={t.th}>Joined</th>
            <th className={t.th}>Last login</th>
            <th className={`${t.th} text-right`}>Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} className={t.row} data-testid={`user-row-${user.login}`}>
              {selectable && (
                <td className={t.td}>
                  <input
                    type="checkbox"
                    aria-label={`Select ${user.login}`}
                    className="h-4 w-4 rounded border-zinc-300 accent-accent-600"
                    checked={selected.has(user.id)}
                    onChange={() => onToggle(user.id)}
                  />
                </td>
              )}
              <td className={t.td}>
                <div className="flex items-center gap-3">
                  <Avatar src={user.avatar_url} name={user.login} size="sm" />
                  <div className="min-w-0">
                    <p className="font-medium text-zinc-900">@{user.login}</p>
                    {fullName(user) && <p className="text-xs text-zinc-500">{fullName(user)}</p>}
                  </div>
                </div>
              </td>
              <td className={t.td}>{user.email ?? <span className="text-zinc-400">No email</span>}</td>
              <td className={t.td}>
                <UserStatus user={user} />
              </td>
              <td className={t.td}>{formatDateTime(user.created_at)}</td>
              <td className={t.td}>{formatDateTime(user.last_login)}</td>
              <td className={`${t.td} text-right`}>
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
