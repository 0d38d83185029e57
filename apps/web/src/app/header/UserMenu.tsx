import type { User } from '@slipway/contract';
import { ChevronDown, CreditCard, LogOut, UserCog } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/ui';

const itemClasses =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 focus:bg-zinc-100 focus:outline-none';

/**
 * Avatar + login button opening Subscriptions and Account Settings (whitelisted users only) and Logout; closes on outside
 * click and Escape.
 */
export function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

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
            {user.whitelisted && (
              <Link
                role="menuitem"
                to="/subscriptions"
                className={itemClasses}
                onClick={() => setOpen(false)}
              >
                <CreditCard className="h-4 w-4" aria-hidden="true" />
                Subscriptions
              </Link>
            )}
            {user.whitelisted && (
              <Link
                role="menuitem"
                to="/account-settings"
                className={itemClasses}
                onClick={() => setOpen(false)}
              >
                <UserCog className="h-4 w-4" aria-hidden="true" />
                Account Settings
              </Link>
            )}
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
