import { randomBytes } from 'node:crypto';
import { ROUTES } from '@slipway/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import type { RouteHandlers } from '../http/registerRoutes.js';
import type { GithubOAuth } from '../infra/github/githubOAuth.js';
import { presentUser } from '../users/presenter.js';
import type { UserRow } from '../users/usersRepository.js';
import type { AuthService, LocalAccount } from './authService.js';
import { type CookiePolicy, clearSessionCookies, setSessionCookies } from './sessionCookies.js';
import { type SessionManager, safeEqual } from './sessions.js';

const OAUTH_STATE_COOKIE = 'slipway_oauth_state';
/** The state cookie is read by GitHub's callback only: the browser sends it there and nowhere else. */
const OAUTH_STATE_COOKIE_SCOPE = { path: ROUTES.oauthCallback.path } as const;

export function authRoutes(deps: {
  auth: AuthService;
  sessions: SessionManager;
  policy: CookiePolicy;
  github: GithubOAuth | undefined;
}) {
  /** Signs the user in on a fresh session (never the one they arrived with) and picks where they land. */
  async function startSession(request: FastifyRequest, reply: FastifyReply, user: UserRow) {
    if (request.session) await deps.sessions.destroy(request.session.id);
    const session = await deps.sessions.create({ userId: user.id });
    setSessionCookies(reply, deps.policy, session, deps.sessions.xsrfTokenFor(session.id));
    return reply.redirect(user.profileCompleted ? '/' : '/complete-profile');
  }

  /** GitHub's sign-in, or in local mode (no GitHub app) the local account `as` names. */
  async function beginSignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    as: LocalAccount,
    install: boolean,
  ) {
    if (!deps.github) return startSession(request, reply, await deps.auth.signInLocal(as));
    const state = randomBytes(24).toString('base64url');
    reply.setCookie(OAUTH_STATE_COOKIE, state, {
      ...OAUTH_STATE_COOKIE_SCOPE,
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.policy.secure,
      maxAge: 600,
    });
    return reply.redirect(deps.github.authorizeUrl(state, install));
  }

  return {
    signInWithInstall: ({ query, request, reply }) => beginSignIn(request, reply, query.as, true),
    signIn: ({ query, request, reply }) => beginSignIn(request, reply, query.as, false),
    oauthCallback: async ({ query: { code, state }, request, reply }) => {
      const expected = request.cookies[OAUTH_STATE_COOKIE];
      reply.clearCookie(OAUTH_STATE_COOKIE, OAUTH_STATE_COOKIE_SCOPE);
      if (!expected || !safeEqual(expected, state)) {
        throw new DomainError(
          'forbidden',
          'The sign-in link expired or was not started here. Please sign in again.',
        );
      }
      return startSession(request, reply, await deps.auth.signInWithGithub(code));
    },
    currentUser: ({ user }) => presentUser(user),
    logout: async ({ request, reply }) => {
      if (request.session) await deps.sessions.destroy(request.session.id);
      clearSessionCookies(reply, deps.policy);
      return { success: true };
    },
    completeProfile: async ({ user, body }) => presentUser(await deps.auth.completeProfile(user, body)),
  } satisfies Partial<RouteHandlers>;
}
