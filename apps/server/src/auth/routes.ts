import { randomBytes } from 'node:crypto';
import { completeProfileRequestSchema } from '@slipway/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../domain/errors.js';
import { currentUser, requireUser } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { GithubOAuth } from '../infra/github/githubOAuth.js';
import { presentUser } from '../users/presenter.js';
import type { UserRow } from '../users/usersRepository.js';
import type { AuthService, LocalAccount } from './authService.js';
import { type CookiePolicy, clearSessionCookies, setSessionCookies } from './sessionCookies.js';
import { type SessionManager, safeEqual } from './sessions.js';

const OAUTH_STATE_COOKIE = 'slipway_oauth_state';

const callbackQuery = z.object({
  code: z.string().min(1).max(512),
  state: z.string().min(1).max(256),
  installation_id: z.string().max(32).optional(),
});
const localSignInQuery = z.object({ as: z.enum(['operator', 'waiting']).default('operator') });

export function authRoutes(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    sessions: SessionManager;
    policy: CookiePolicy;
    github: GithubOAuth | undefined;
  },
) {
  /** Signs the user in on a fresh session (never the one they arrived with) and picks where they land. */
  async function startSession(request: FastifyRequest, reply: FastifyReply, user: UserRow) {
    if (request.session) await deps.sessions.destroy(request.session.id);
    const session = await deps.sessions.create({ userId: user.id });
    setSessionCookies(reply, deps.policy, session, deps.sessions.xsrfTokenFor(session.id));
    return reply.redirect(user.profileCompleted ? '/' : '/complete-profile');
  }

  async function beginSignIn(request: FastifyRequest, reply: FastifyReply, install: boolean) {
    if (!deps.github) {
      const { as } = parse(localSignInQuery, request.query);
      return startSession(request, reply, await deps.auth.signInLocal(as as LocalAccount));
    }
    const state = randomBytes(24).toString('base64url');
    reply.setCookie(OAUTH_STATE_COOKIE, state, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.policy.secure,
      maxAge: 600,
    });
    return reply.redirect(deps.github.authorizeUrl(state, install));
  }

  app.get('/api/auth/github/install', (request, reply) => beginSignIn(request, reply, true));
  app.get('/api/auth/github', (request, reply) => beginSignIn(request, reply, false));

  app.get('/api/auth/github/callback', async (request, reply) => {
    const { code, state } = parse(callbackQuery, request.query);
    const expected = request.cookies[OAUTH_STATE_COOKIE];
    reply.clearCookie(OAUTH_STATE_COOKIE, { path: '/api/auth' });
    if (!expected || !safeEqual(expected, state)) {
      throw new DomainError(
        'forbidden',
        'The sign-in link expired or was not started here. Please sign in again.',
      );
    }
    return startSession(request, reply, await deps.auth.signInWithGithub(code));
  });

  app.get('/api/user', { preHandler: requireUser }, async (request) => presentUser(currentUser(request)));

  app.post('/api/auth/logout', async (request, reply) => {
    if (request.session) await deps.sessions.destroy(request.session.id);
    clearSessionCookies(reply, deps.policy);
    return { success: true };
  });

  app.post('/api/auth/complete-profile', { preHandler: requireUser }, async (request) => {
    const input = parse(completeProfileRequestSchema, request.body);
    return presentUser(await deps.auth.completeProfile(currentUser(request), input));
  });
}
