import type { ErrorBody } from '@slipway/contract';
import axios, { type AxiosError } from 'axios';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The session check answers 401 for every visitor; that 401 is silent (no redirect to '/'). */
    silentUnauthorized?: boolean;
  }
}

/**
 * The one HTTP client. Cookies go with every call; axios copies the XSRF-TOKEN cookie into the
 * X-XSRF-TOKEN header on same-origin requests (its defaults, which the server expects).
 */
export const api = axios.create({
  withCredentials: true,
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  headers: { Accept: 'application/json' },
});

type Navigate = (path: string) => void;
let navigate: Navigate = (path) => window.location.assign(path);
let onUnauthorized: () => void = () => {};

/** The router registers client-side navigation; until then redirects are full page loads. */
export function setApiNavigator(next: Navigate) {
  navigate = next;
}

/** The auth state registers how to forget the user when any call finds the session gone. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

/** Spec: a 401 anywhere but the root goes to '/', unless we are mid sign-in (a code, or the provider path). */
export function shouldRedirectOnUnauthorized(location: { pathname: string; search: string }): boolean {
  if (location.pathname === '/') return false;
  if (new URLSearchParams(location.search).has('code')) return false;
  return !location.pathname.includes('/api/auth/github');
}

api.interceptors.response.use(undefined, (error: AxiosError<Partial<ErrorBody>>) => {
  const status = error.response?.status;
  const body = error.response?.data;
  if (status === 401 && !error.config?.silentUnauthorized) {
    onUnauthorized();
    if (shouldRedirectOnUnauthorized(window.location)) navigate('/');
  } else if (status === 403 && typeof body?.redirect === 'string' && body.redirect.startsWith('/')) {
    if (window.location.pathname !== body.redirect) navigate(body.redirect);
  }
  return Promise.reject(error);
});
