import { currentUserEndpoint, type ErrorBody, type User } from '@slipway/contract';
import { followAuthFailure } from './authRedirects';

/**
 * The session check at start-up: GET /api/user with the browser's fetch, so the first JavaScript a
 * visitor loads carries neither axios nor the query cache (the screens bring both). It follows the
 * HTTP client's rules: a dropped connection is retried twice (300 ms, then 600 ms later), a 401 means
 * "a visitor" and is silent, a 403 with a redirect is followed. The path is the route's own constant
 * (shellEndpoints.ts), not read from the whole table, which would load it before the landing.
 */
export const SESSION_URL = currentUserEndpoint.path;

const RETRIES = 2;
const RETRY_DELAY_MS = 300;

/** The session check got an answer other than 200 or 401; `serverMessage` is the body's `error` field. */
export class SessionCheckError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
  ) {
    super(`GET ${SESSION_URL} answered ${status}`);
    this.name = 'SessionCheckError';
  }
}

/** fetch rejects (a TypeError) only when no answer arrived: the connection dropped or never opened. */
async function fetchRetryingDroppedConnections(url: string): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    } catch (error) {
      if (attempt >= RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, (attempt + 1) * RETRY_DELAY_MS));
    }
  }
}

async function errorBody(response: Response): Promise<Partial<ErrorBody>> {
  try {
    return (await response.json()) as Partial<ErrorBody>;
  } catch {
    return {};
  }
}

/** The signed-in user, or null for a visitor. `origin` is for tests (the browser resolves the path). */
export async function fetchSessionUser(origin = ''): Promise<User | null> {
  const response = await fetchRetryingDroppedConnections(`${origin}${SESSION_URL}`);
  if (response.ok) return (await response.json()) as User;
  const body = await errorBody(response);
  followAuthFailure(response.status, body.redirect, true);
  if (response.status === 401) return null;
  throw new SessionCheckError(response.status, typeof body.error === 'string' ? body.error : undefined);
}
