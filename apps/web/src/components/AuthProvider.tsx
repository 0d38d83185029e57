import type { User } from '@slipway/contract';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { logout as logoutRequest, SIGN_IN_URL } from '../api/auth';
import { setUnauthorizedHandler } from '../api/authRedirects';
import { serverError } from '../api/errors';
import { fetchSessionUser, SessionCheckError } from '../api/sessionCheck';
import { announceSignedOut } from '../api/signOut';

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

interface Session {
  user: User | null;
  loading: boolean;
  error: string | null;
}

const AuthContext = createContext<AuthState | null>(null);

function checkFailure(error: unknown): string {
  const message = error instanceof SessionCheckError ? error.serverMessage : undefined;
  return message ?? 'Authentication check failed';
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>({ user: null, loading: true, error: null });
  const [isSigningIn, setIsSigningIn] = useState(false);
  const [logoutError, setLogoutError] = useState<string | null>(null);
  // The latest check wins: a refresh started after another one replaces its answer.
  const latestCheck = useRef(0);

  const refresh = useCallback(async () => {
    const check = ++latestCheck.current;
    try {
      const user = await fetchSessionUser();
      if (check === latestCheck.current) setSession({ user, loading: false, error: null });
      return user;
    } catch (error) {
      // A failed re-check keeps the user it knew (the session may well still be there).
      if (check === latestCheck.current) {
        setSession((current) => ({ user: current.user, loading: false, error: checkFailure(error) }));
      }
      return null;
    }
  }, []);

  // Checked once on load; later reads are explicit (refresh) or follow a logout.
  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    setUnauthorizedHandler(() => setSession((current) => ({ ...current, user: null })));
  }, []);

  const signIn = useCallback(() => {
    setIsSigningIn(true);
    window.setTimeout(() => window.location.assign(SIGN_IN_URL), SIGN_IN_DELAY_MS);
  }, []);

  const logout = useCallback(async () => {
    try {
      await logoutRequest();
      setLogoutError(null);
      setSession({ user: null, loading: false, error: null });
      announceSignedOut();
    } catch (error) {
      setLogoutError(serverError(error) ?? 'Logout failed');
    }
  }, []);

  const value = useMemo<AuthState>(
    () => ({
      user: session.user,
      loading: session.loading,
      error: logoutError ?? session.error,
      isSigningIn,
      refresh,
      signIn,
      logout,
    }),
    [session, logoutError, isSigningIn, refresh, signIn, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
