import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CookiePolicy, setSessionCookies } from '../auth/sessionCookies.js';
import type { SessionManager } from '../auth/sessions.js';
import type { RouteHandlers } from '../http/registerRoutes.js';
import type { Impersonation } from './impersonation.js';

/** Where an impersonation token is used: the browser opens the link (GET) or posts the token. */
export function impersonationRoutes(deps: {
  impersonation: Impersonation;
  sessions: SessionManager;
  policy: CookiePolicy;
}) {
  async function signIn(request: FastifyRequest, reply: FastifyReply, token: string) {
    const session = await deps.impersonation.redeem(token, { ip: request.ip });
    // Whoever was signed in on this browser is signed out: the new session replaces theirs.
    if (request.session) await deps.sessions.destroy(request.session.id);
    setSessionCookies(reply, deps.policy, session, deps.sessions.xsrfTokenFor(session.id));
    return reply.redirect('/');
  }

  return {
    openImpersonationLink: ({ query, request, reply }) => signIn(request, reply, query.token),
    redeemImpersonationToken: ({ body, request, reply }) => signIn(request, reply, body.token),
  } satisfies Partial<RouteHandlers>;
}
