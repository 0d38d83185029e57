import {
  addWhitelistEmailRequestSchema,
  adminAuthRequestSchema,
  auditLogQuerySchema,
  bulkWhitelistRequestSchema,
  redisFlushRequestSchema,
  SYSTEM_LOG_SERVICES,
  systemLogQuerySchema,
} from '@slipway/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CookiePolicy } from '../auth/sessionCookies.js';
import type { SessionManager } from '../auth/sessions.js';
import { DomainError } from '../domain/errors.js';
import type { RateLimiter } from '../http/rateLimit.js';
import { parse } from '../http/validate.js';
import { ADMIN_SESSION_TTL_MS, adminCookieName } from './adminAccess.js';
import type { AdminModule } from './adminModule.js';
import { impersonationRoutes } from './impersonationRoutes.js';
import { registerWebAccessLog } from './systemLogs.js';

const idParam = z.object({ id: z.string().max(64) });
const emailParam = z.object({ email: z.string().min(1).max(254) });
const vmParam = z.object({ vm_name: z.string().min(1).max(128) });
const logParam = z.object({
  service: z.enum(SYSTEM_LOG_SERVICES, { error: 'Unknown log service: use backend or frontend' }),
});

export function adminRoutes(
  app: FastifyInstance,
  deps: { admin: AdminModule; sessions: SessionManager; policy: CookiePolicy; limits: RateLimiter },
) {
  const { admin } = deps;
  const cookie = adminCookieName(deps.policy.secure);
  const adminSessionId = (request: FastifyRequest) => request.cookies[cookie];

  // Open to everyone: how the admin session starts, ends and is checked.
  app.post('/api/admin/auth', { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const { adminPassword } = parse(adminAuthRequestSchema, request.body);
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
  });
  app.get('/api/admin/session-status', async (request) => ({
    isAdmin: await admin.access.isAdmin(adminSessionId(request)),
  }));
  app.post('/api/admin/logout', async (request, reply) => {
    await admin.access.logout(adminSessionId(request));
    reply.clearCookie(cookie, { path: '/', secure: deps.policy.secure });
    return { success: true };
  });

  // Everything else needs the admin session. One hook guards the whole scope, before any body is read.
  app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request) => {
        if (!(await admin.access.isAdmin(adminSessionId(request)))) {
          throw new DomainError('unauthenticated', 'Admin session required. Sign in to the admin panel.');
        }
      });

      scope.get('/stats', () => admin.inventory.stats());
      scope.get('/users', () => admin.users.listUsers('all'));
      scope.get('/users/waiting-list', () => admin.users.listUsers('waiting-list'));
      scope.get('/users/whitelisted', () => admin.users.listUsers('whitelisted'));
      scope.post('/users/:id/whitelist', (request) =>
        admin.users.whitelist(parse(idParam, request.params).id),
      );
      scope.delete('/users/:id/whitelist', (request) =>
        admin.users.removeFromWhitelist(parse(idParam, request.params).id),
      );
      scope.post('/users/bulk-whitelist', (request) => {
        const input = parse(bulkWhitelistRequestSchema, request.body);
        return admin.users.bulkWhitelist(Array.isArray(input) ? input : input.user_ids);
      });

      scope.get('/whitelist/emails', () => admin.users.listEmails());
      scope.post('/whitelist/emails', (request) =>
        admin.users.addEmail(parse(addWhitelistEmailRequestSchema, request.body)),
      );
      scope.delete('/whitelist/emails/:email', (request) =>
        admin.users.removeEmail(parse(emailParam, request.params).email),
      );

      scope.get('/vms', () => admin.inventory.listVms());
      scope.delete('/vms/:vm_name', (request) =>
        admin.inventory.deleteVm(parse(vmParam, request.params).vm_name),
      );
      scope.get('/workspaces', () => admin.inventory.listWorkspaces());

      scope.get('/logs', () => admin.logs.services());
      scope.get('/logs/:service', (request) =>
        admin.logs.tail(
          parse(logParam, request.params).service,
          parse(systemLogQuerySchema, request.query).lines,
        ),
      );

      scope.get('/audit-log', (request) =>
        admin.auditLog.recent(parse(auditLogQuerySchema, request.query).limit),
      );

      scope.get('/redis/info', () => admin.cache.info());
      scope.post('/redis/flush', async (request) => {
        const { type } = parse(redisFlushRequestSchema, request.body);
        // Flushing sessions signs everyone out, but not the admin who asked: the panel reloads next.
        const id = adminSessionId(request)!;
        const mine = await admin.access.sessionData(id);
        const result = await admin.cache.flush(type);
        if (mine && (type === 'sessions' || type === 'all')) await admin.access.restoreSession(id, mine);
        return result;
      });

      scope.post('/impersonate/:id', (request) =>
        admin.impersonation.issue(parse(idParam, request.params).id, { ip: request.ip }),
      );

      scope.get('/cadvisor/api/v1.3/machine', () => admin.monitor.machine());
      scope.get('/cadvisor/api/v1.3/containers', () => admin.monitor.containers());
    },
    { prefix: '/api/admin' },
  );

  impersonationRoutes(app, {
    impersonation: admin.impersonation,
    sessions: deps.sessions,
    policy: deps.policy,
  });
  registerWebAccessLog(app, { logDir: admin.logDir });
}
