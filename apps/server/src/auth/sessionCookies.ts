import type { FastifyReply } from 'fastify';
import type { Session } from './sessions.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

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

export function setXsrfCookie(reply: FastifyReply, policy: CookiePolicy, token: string) {
  // Readable by the web app (axios copies it into X-XSRF-TOKEN); useless to another site.
  reply.setCookie(XSRF_COOKIE, token, { path: '/', httpOnly: false, sameSite: 'lax', secure: policy.secure });
}

export function clearSessionCookies(reply: FastifyReply, policy: CookiePolicy) {
  reply.clearCookie(policy.sessionCookie, { path: '/', secure: policy.secure });
}
