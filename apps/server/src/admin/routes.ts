import type { FastifyRequest } from 'fastify';
import type { CookiePolicy } from '../auth/sessionCookies.js';
import type { SessionManager } from '../auth/sessions.js';
import { DomainError } from '../domain/errors.js';
import type { RateLimiter } from '../http/rateLimit.js';
import type { AccessChecks, RouteHandlers } from '../http/registerRoutes.js';
import { ADMIN_SESSION_TTL_MS, type AdminAccess, adminCookieName } from './adminAccess.js';
import type { AdminModule } from './adminModule.js';
import { impersonationRoutes } from './impersonationRoutes.js';

const adminSessionOf = (policy: CookiePolicy) => (request: FastifyRequest) =>
  request.cookies[adminCookieName(policy.secure)];

/** The guard of every route whose access is 'admin'. */
export function adminSessionCheck(access: AdminAccess, policy: CookiePolicy): AccessChecks['admin'] {
  const adminSessionId = adminSessionOf(policy);
  return async (request) => {
    if (!(await access.isAdmin(adminSessionId(request)))) {
      throw new DomainError('unauthenticated', 'Admin session required. Sign in to the admin panel.');
    }
  };
}

export function adminRoutes(deps: {
  admin: AdminModule;
  sessions: SessionManager;
  policy: CookiePolicy;
  limits: RateLimiter;
}) {
  const { admin } = deps;
  const cookie = adminCookieName(deps.policy.secure);
  const adminSessionId = adminSessionOf(deps.policy);

  return {
    // Open to everyone: how the admin session starts, ends and is checked.
    adminSignIn: async ({ body: { adminPassword }, request, reply }) => {
      // Failures only count: every attempt is counted first (so parallel guesses cannot slip under the
      // limit), and a success forgives the client's count.
      await deps.limits.hit('adminSignIn', request.ip, { success: false });
      const id = await admin.access.login(adminPassword, request.ip);
      await deps.limits.forgive('adminSignIn', request.ip);
      await admin.access.logout(adminSessionId(request)); // a fresh id each login
      reply.setCookie(cookie, id, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.policy.secure,
        maxAge: ADMIN_SESSION_TTL_MS / 1000,
      });
      return { success: true };
    },
    adminSessionStatus: async ({ request }) => ({
      isAdmin: await admin.access.isAdmin(adminSessionId(request)),
    }),
    adminSignOut: async ({ request, reply }) => {
      await admin.access.logout(adminSessionId(request));
      reply.clearCookie(cookie, { path: '/', secure: deps.policy.secure });
      return { success: true };
    },

    // The rest need the admin session (access 'admin': checked before any body is read).
    adminStats: () => admin.inventory.stats(),
    adminUsers: () => admin.users.listUsers('all'),
    adminWaitingList: () => admin.users.listUsers('waiting-list'),
    adminWhitelistedUsers: () => admin.users.listUsers('whitelisted'),
    whitelistUser: ({ params }) => admin.users.whitelist(params.id),
    removeFromWhitelist: ({ params }) => admin.users.removeFromWhitelist(params.id),
    bulkWhitelist: ({ body }) => admin.users.bulkWhitelist(Array.isArray(body) ? body : body.user_ids),
    whitelistEmails: () => admin.users.listEmails(),
    addWhitelistEmail: ({ body }) => admin.users.addEmail(body),
    removeWhitelistEmail: ({ params }) => admin.users.removeEmail(params.email),
    adminVms: () => admin.inventory.listVms(),
    deleteVm: ({ params }) => admin.inventory.deleteVm(params.vm_name),
    adminWorkspaces: () => admin.inventory.listWorkspaces(),
    systemLogs: () => admin.logs.services(),
    systemLogTail: ({ params, query }) => admin.logs.tail(params.service, query.lines),
    auditLog: ({ query }) => admin.auditLog.recent(query.limit),
    redisInfo: () => admin.cache.info(),
    redisFlush: async ({ body: { type }, request }) => {
      // Flushing sessions signs everyone out, but not the admin who asked: the panel reloads next.
      const id = adminSessionId(request)!;
      const mine = await admin.access.sessionData(id);
      const result = await admin.cache.flush(type);
      if (mine && (type === 'sessions' || type === 'all')) await admin.access.restoreSession(id, mine);
      return result;
    },
    impersonate: ({ params, request }) => admin.impersonation.issue(params.id, { ip: request.ip }),
    cadvisorMachine: () => admin.monitor.machine(),
    cadvisorContainers: () => admin.monitor.containers(),

    ...impersonationRoutes({
      impersonation: admin.impersonation,
      sessions: deps.sessions,
      policy: deps.policy,
    }),
  } satisfies Partial<RouteHandlers>;
}
