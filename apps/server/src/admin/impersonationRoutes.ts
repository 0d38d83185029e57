import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type CookiePolicy, setSessionCookies } from '../auth/sessionCookies.js';
import type { SessionManager } from '../auth/sessions.js';
import { parse } from '../http/validate.js';
import type { Impersonation } from './impersonation.js';

const tokenInput = z.object({
  token: z.string({ error: 'The impersonation token is missing' }).min(1).max(128),
});

/** Where an impersonation token is used: the browser opens the link (GET) or posts the token. */
export function impersonationRoutes(
  app: FastifyInstance,
  deps: { impersonation: Impersonation; sessions: SessionManager; policy: CookiePolicy },
) {
  async function signIn(request: FastifyRequest, reply: FastifyReply, input: unknown) {
    const { token } = parse(tokenInput, input);
    const session = await deps.impersonation.redeem(token, { ip: request.ip });
    // Whoever was signed in on this browser is signed out: the new session replaces theirs.
    if (request.session) await deps.sessions.destroy(request.session.id);
    setSessionCookies(reply, deps.policy, session, deps.sessions.xsrfTokenFor(session.id));
    return reply.redirect('/');
  }

  app.get('/api/auth/impersonate', (request, reply) => signIn(request, reply, request.query));
  app.post('/api/auth/impersonate', (request, reply) => signIn(request, reply, request.body));
}
