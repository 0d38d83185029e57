import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Session, type SessionManager, safeEqual } from '../auth/sessions.js';
import { DomainError } from '../domain/errors.js';
import type { UserRow, UsersRepository } from '../users/usersRepository.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | undefined;
    user: UserRow | undefined;
  }
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CookiePolicy {
  sessionCookie: string;
  secure: boolean;
}

export function cookiePolicy(production: boolean): CookiePolicy {
  // `__Host-` pins the cookie to this exact origin over HTTPS; it needs Secure and Path=/ and no Domain.
  return { sessionCookie: production ? '__Host-slipway_session' : 'slipway_session', secure: production };
}

export function setSessionCookies(
  reply: FastifyReply,
  policy: CookiePolicy,
  session: Session,
  xsrfToken: string,
) {
  reply.setCookie(policy.sessionCookie, session.id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    maxAge: 14 * 24 * 60 * 60,
  });
  setXsrfCookie(reply, policy, xsrfToken);
}

function setXsrfCookie(reply: FastifyReply, policy: CookiePolicy, token: string) {
  // Readable by the web app (axios copies it into X-XSRF-TOKEN); useless to another site.
  reply.setCookie(XSRF_COOKIE, token, { path: '/', httpOnly: false, sameSite: 'lax', secure: policy.secure });
}

export function clearSessionCookies(reply: FastifyReply, policy: CookiePolicy) {
  reply.clearCookie(policy.sessionCookie, { path: '/', secure: policy.secure });
}

/**
 * Loads the session and its user for every API request and checks the anti-forgery token on every
 * state-changing one. Signed in, the token is bound to the session; signed out, it must match the cookie.
 */
export function registerRequestContext(
  app: FastifyInstance,
  deps: {
    sessions: SessionManager;
    users: UsersRepository;
    policy: CookiePolicy;
    xsrfExemptPrefixes: string[];
  },
) {
  app.decorateRequest('session', undefined);
  app.decorateRequest('user', undefined);

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
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

/** Signed in, any account. */
export async function requireUser(request: FastifyRequest) {
  if (!request.user) throw new DomainError('unauthenticated', 'Please sign in to continue');
}

/** Signed in and let in from the waiting list. */
export async function requireWhitelisted(request: FastifyRequest) {
  await requireUser(request);
  if (!request.user?.whitelisted) {
    throw new DomainError('not_whitelisted', "You're on the waiting list", { redirect: '/waiting-list' });
  }
}

export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new DomainError('unauthenticated', 'Please sign in to continue');
  return request.user;
}
