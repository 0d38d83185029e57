import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '../components/AuthProvider';
import { LoadingView } from '../components/ui';

/** Who may open a route. */
export type Access = 'public' | 'signed-in' | 'whitelisted';

/**
 * Spec guards: while the session check runs, 'Loading...'; not signed in → '/';
 * signed in but not whitelisted (on a whitelisted-only route) → '/waiting-list'.
 */
export function RouteGuard({ access, children }: { access: Access; children: ReactNode }) {
  const { user, loading } = useAuth();
  if (access === 'public') return children;
  if (loading) return <LoadingView />;
  if (!user) return <Navigate to="/" replace />;
  if (access === 'whitelisted' && !user.whitelisted) return <Navigate to="/waiting-list" replace />;
  return children;
}
