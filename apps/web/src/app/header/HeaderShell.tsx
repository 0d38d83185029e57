import { Menu, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Logo } from './Logo';
import { useMobileMenu } from './mobileMenu';

/**
 * The sticky header frame shared by the public and signed-in headers: logo, desktop items,
 * and a mobile menu toggle revealing the same items stacked.
 */
export function HeaderShell({
  desktop,
  mobile,
}: {
  desktop: ReactNode;
  mobile: (close: () => void) => ReactNode;
}) {
  const { open, setOpen } = useMobileMenu();

  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <div className="hidden items-center gap-1 md:flex">{desktop}</div>
        <button
          type="button"
          className="rounded-md p-2 text-zinc-600 hover:bg-zinc-100 md:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <X className="h-5 w-5" /> : <Menu className="h-5 w-5" />}
        </button>
      </div>
      {open && (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="border-t border-zinc-200 bg-white px-4 py-3 md:hidden"
        >
          <div className="flex flex-col gap-1">{mobile(() => setOpen(false))}</div>
        </nav>
      )}
    </header>
  );
}

export const navItemClasses =
  'rounded-md px-3 py-2 text-sm font-medium text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900 text-left';
