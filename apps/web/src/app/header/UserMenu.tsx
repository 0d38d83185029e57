import type { User } from '@slipway/contract';
import { ChevronDown, CreditCard, LogOut, UserCog } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/ui';
import { useDismiss } from '../../components/useDismiss';

const itemClasses =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 focus:bg-zinc-100 focus:outline-none';

/** The menu's pages, for whitelisted users only. */
const WHITELISTED_LINKS = [
  { to: '/subscriptions', label: 'Subscriptions', icon: CreditCard },
  { to: '/account-settings', label: 'Account Settings', icon: UserCog },
] as const;

/**
 * Avatar + login button opening Subscriptions and Account Settings (whitelisted users only) and Logout; closes on outside
 * click and Escape.
 */
export function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useDismiss(open, root, (how) => {
    setOpen(false);
    if (how === 'escape') button.current?.focus();
  });

  return (
    <div ref={root} className="relative ml-2">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="user-menu"
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-zinc-800 hover:bg-zinc-100"
      >
        <Avatar src={user.avatar_url} name={user.login} size="sm" />
        <span className="max-w-[10rem] truncate">{user.login}</span>
        <ChevronDown className="h-4 w-4 text-zinc-400" aria-hidden="true" />
      </button>
      {open && (
        <div
          id="user-menu"
          role="menu"
          aria-label="Account"
          className="absolute right-0 mt-2 w-56 rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg"
        >
          <div className="border-b border-zinc-100 px-3 pt-1.5 pb-2.5">
            <p className="truncate text-sm font-medium text-zinc-900">{user.name ?? user.login}</p>
            {user.email && <p className="truncate text-xs text-zinc-500">{user.email}</p>}
          </div>
          <div className="pt-1">
            {user.whitelisted &&
              WHITELISTED_LINKS.map(({ to, label, icon: Icon }) => (
                <Link key={to} role="menuitem" to={to} className={itemClasses} onClick={() => setOpen(false)}>
                  <Icon className="h-4 w-4" aria-hidden="true" />
                  {label}
                </Link>
              ))}
            <button
              role="menuitem"
              type="button"
              className={itemClasses}
              onClick={() => {
                setOpen(false);
                onLogout();
              }}
            >
              <LogOut className="h-4 w-4" aria-hidden="true" />
              Logout
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
