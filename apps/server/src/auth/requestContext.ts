import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { bearerTokenOf } from '../http/bearerToken.js';
import type { UserRow, UsersRepository } from '../users/usersRepository.js';
import { type CookiePolicy, setXsrfCookie, XSRF_COOKIE, XSRF_HEADER } from './sessionCookies.js';
import { type Session, type SessionManager, safeEqual } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | undefined;
  }
}

declare module '../http/routeGuards.js' {
  /** The user `request.user` holds: the whole row this hook loads (http/ declares only what its guards read). */
  interface RequestUser extends UserRow {}
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Loads the session and its user for every API request and checks the anti-forgery token on every
 * state-changing one. Signed in, the token is bound to the session; signed out, it must match the cookie.
 * A request with `Authorization: Bearer` is a script's: its token alone says who it is (cookies are ignored),
 * and it needs no anti-forgery token, since a browser never adds that header to a forged request by itself.
 */
export function registerRequestContext(
  app: FastifyInstance,
  deps: {
    sessions: SessionManager;
    users: UsersRepository;
    policy: CookiePolicy;
    xsrfExemptPrefixes: string[];
    /** Authenticates a request that carries an API token (api-tokens/tokenGuard.ts). */
    bearer?: (request: FastifyRequest, reply: FastifyReply, token: string) => Promise<void>;
  },
) {
  app.decorateRequest('session', undefined);
  app.decorateRequest('user', undefined);

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = deps.bearer ? bearerTokenOf(request.headers.authorization) : undefined;
    if (token !== undefined) return deps.bearer!(request, reply, token);
    const sessionId = request.cookies[deps.policy.sessionCookie];
    const session = sessionId ? await deps.sessions.get(sessionId) : undefined;
    if (session) {
      request.session = session;
      request.user = await deps.users.findById(session.data.userId);
    }
    const expected = session ? deps.sessions.xsrfTokenFor(session.id) : undefined;
    const cookieToken = request.cookies[XSRF_COOKIE];
    if (expected ? cookieToken !== expected : !cookieToken) {
      setXsrfCookie(reply, deps.policy, expected ?? randomBytes(32).toString('base64url'));
    }
    if (SAFE_METHODS.has(request.method)) return;
    if (deps.xsrfExemptPrefixes.some((prefix) => request.url.startsWith(prefix))) return;
    const header = request.headers[XSRF_HEADER];
    const sent = typeof header === 'string' ? header : '';
    const valid = expected
      ? safeEqual(sent, expected)
      : Boolean(cookieToken) && safeEqual(sent, cookieToken ?? '');
    if (!valid) {
      throw new DomainError(
        'xsrf_mismatch',
        'The anti-forgery token is missing or wrong. Reload the page and try again.',
      );
    }
  });
}
