import type { User } from '@slipway/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { currentUserKey, fetchCurrentUser, logout as logoutRequest, SIGN_IN_URL } from '../api/auth';
import { setUnauthorizedHandler } from '../api/authRedirects';
import { serverError } from '../api/errors';

/** Spec: the sign-in button waits this long before leaving for the provider. */
export const SIGN_IN_DELAY_MS = 100;

export interface AuthState {
  user: User | null;
  loading: boolean;
  error: string | null;
  isSigningIn: boolean;
  /** Re-reads GET /api/user (after completing the profile, for example). */
  refresh: () => Promise<User | null>;
  /** Starts GitHub sign-in: a full-page navigation to /api/auth/github/install after 100 ms. */
  signIn: () => void;
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [isSigningIn, setIsSigningIn] = useState(false);
  const [logoutError, setLogoutError] = useState<string | null>(null);
  // Checked once on load; later reads are explicit (refresh) or follow a logout.
  const session = useQuery({
    queryKey: currentUserKey,
    queryFn: fetchCurrentUser,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  useEffect(() => {
    setUnauthorizedHandler(() => queryClient.setQueryData(currentUserKey, null));
  }, [queryClient]);

  const refresh = useCallback(async () => {
    const result = await session.refetch();
    return result.data ?? null;
  }, [session.refetch]);

  const signIn = useCallback(() => {
    setIsSigningIn(true);
    window.setTimeout(() => window.location.assign(SIGN_IN_URL), SIGN_IN_DELAY_MS);
  }, []);

  const logout = useCallback(async () => {
    try {
      await logoutRequest();
      setLogoutError(null);
      queryClient.setQueryData(currentUserKey, null);
      // Everything else cached belonged to the old session.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserKey[0] });
    } catch (error) {
      setLogoutError(serverError(error) ?? 'Logout failed');
    }
  }, [queryClient]);

  const value = useMemo<AuthState>(() => {
    const checkError = session.error ? (serverError(session.error) ?? 'Authentication check failed') : null;
    return {
      user: session.data ?? null,
      loading: session.isPending,
      error: logoutError ?? checkError,
      isSigningIn,
      refresh,
      signIn,
      logout,
    };
  }, [session.data, session.isPending, session.error, logoutError, isSigningIn, refresh, signIn, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
