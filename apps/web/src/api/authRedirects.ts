import { signInEndpoint } from '@slipway/contract';

/**
 * Where the app goes when the server says the session is gone (401) or the user must be elsewhere first
 * (403 with a redirect). Kept apart from the HTTP client so the shell registers its handlers without
 * loading axios, which only the screens (and the session check, after start) need.
 */
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
  return !location.pathname.includes(signInEndpoint.path);
}

/** A failed call's status and body: a 401 forgets the user (and leaves the page), a 403 may redirect. */
export function followAuthFailure(
  status: number | undefined,
  redirect: unknown,
  silentUnauthorized: boolean,
) {
  if (status === 401 && !silentUnauthorized) {
    onUnauthorized();
    if (shouldRedirectOnUnauthorized(window.location)) navigate('/');
  } else if (status === 403 && typeof redirect === 'string' && redirect.startsWith('/')) {
    if (window.location.pathname !== redirect) navigate(redirect);
  }
}
