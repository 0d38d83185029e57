import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';

interface MobileMenu {
  open: boolean;
  setOpen: (next: boolean | ((open: boolean) => boolean)) => void;
}

const MobileMenuContext = createContext<MobileMenu | null>(null);

/**
 * Whether the mobile menu is open, held above the header: the header changes once the session check (and
 * the signed-in header's chunk) answers, and a menu the visitor opened meanwhile stays open with the new
 * items. A new page closes it.
 */
export function MobileMenuProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname) setOpen(false);
  }, [pathname]);
  const menu = useMemo(() => ({ open, setOpen }), [open]);
  return <MobileMenuContext.Provider value={menu}>{children}</MobileMenuContext.Provider>;
}

export function useMobileMenu(): MobileMenu {
  const menu = useContext(MobileMenuContext);
  if (!menu) throw new Error('useMobileMenu must be used inside <MobileMenuProvider>');
  return menu;
}
