import { useCallback, useEffect, useState } from 'react';
import { checkAdminSession } from '../../api/admin';
import { LoadingView } from '../../components/ui';
import { AdminLoginForm } from './AdminLoginForm';
import { AdminPanel } from './AdminPanel';

type AdminSession = 'unknown' | 'not-admin' | 'admin';

/**
 * /admin, outside the main layout. Its guard is the admin session (spec §4): unknown while
 * session-status answers, then the password form or the panel.
 */
export function AdminPage() {
  const [session, setSession] = useState<AdminSession>('unknown');

  useEffect(() => {
    document.title = 'Admin Panel · Slipway';
    let cancelled = false;
    checkAdminSession()
      .then((isAdmin) => !cancelled && setSession(isAdmin ? 'admin' : 'not-admin'))
      .catch(() => !cancelled && setSession('not-admin'));
    return () => {
      cancelled = true;
    };
  }, []);

  const signedOut = useCallback(() => setSession('not-admin'), []);

  return (
    <div className="min-h-screen bg-zinc-50">
      {session === 'unknown' && <LoadingView title="Checking admin session..." />}
      {session === 'not-admin' && <AdminLoginForm onSuccess={() => setSession('admin')} />}
      {session === 'admin' && <AdminPanel onSignedOut={signedOut} />}
    </div>
  );
}
