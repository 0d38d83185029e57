import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { ROUTES } from '@slipway/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { adminRoutes, adminSessionCheck } from '../admin/routes.js';
import { registerWebAccessLog } from '../admin/systemLogs.js';
import { alertsRoutes } from '../alerts/routes.js';
import { apiReferenceRoutes } from '../api-reference/routes.js';
import { apiTokenRoutes } from '../api-tokens/routes.js';
import { createTokenGuard, decorateTokenRequests } from '../api-tokens/tokenGuard.js';
import { registerRequestContext } from '../auth/requestContext.js';
import { authRoutes } from '../auth/routes.js';
import { cookiePolicy } from '../auth/sessionCookies.js';
import { backupRoutes } from '../backups/routes.js';
import { billingRoutes } from '../billing/routes.js';
import { customDomainRoutes } from '../custom-domains/routes.js';
import { deployOnPushRoutes } from '../deploy-on-push/routes.js';
import { deploymentRoutes } from '../deployments/routes.js';
import { enterpriseRoutes } from '../enterprise/routes.js';
import { envVariableRoutes } from '../env-variables/routes.js';
import {
  answerClientError,
  answerFrameworkError,
  MAX_PARAM_LENGTH,
  registerErrorHandler,
} from '../http/errorHandler.js';
import { registerJsonBodyParser } from '../http/jsonBody.js';
import { createRateLimiter } from '../http/rateLimit.js';
import { type Handler, registerRoutes } from '../http/registerRoutes.js';
import { frameSourcesFor, registerSecurityHeaders } from '../http/securityHeaders.js';
import { logsRoutes } from '../logs/routes.js';
import { monitoringRoutes } from '../monitoring/routes.js';
import { notificationsRoutes } from '../notifications/routes.js';
import { previewRoutes } from '../previews/routes.js';
import { repositoryRoutes } from '../repositories/routes.js';
import { workspacesRoutes } from '../workspaces/routes.js';
import type { Platform } from './platform.js';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
/** Webhooks authenticate by signature, not by cookie, so they carry no anti-forgery token. */
const XSRF_EXEMPT = ['/api/webhooks/'];

export async function buildApp(
  platform: Platform,
  options: { webDist?: string } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: platform.logger as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    trustProxy: platform.config.trustProxy,
    // Past Fastify's 100 characters, the route's own schema says what is wrong with a parameter, in words.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  await registerSecurityHeaders(app, {
    production: platform.config.production,
    frameSources: frameSourcesFor(platform.config.demoVideoUrl),
  });
  await app.register(fastifyCookie);
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  const policy = cookiePolicy(platform.config.production);
  const limits = createRateLimiter(platform.kv);
  const deploymentRows = platform.deployments.repository;
  const tokenGuard = createTokenGuard({
    service: platform.apiTokens,
    findUser: (id) => platform.users.findById(id),
    limits,
    workspaces: {
      bySession: async (userId, sessionId) =>
        (await deploymentRows.findBySession(userId, sessionId))?.workspaceName,
      byDeployment: async (userId, id) => {
        const row = await deploymentRows.findById(id);
        return row?.userId === userId ? row.workspaceName : undefined;
      },
    },
  });
  registerRequestContext(app, {
    sessions: platform.sessions,
    users: platform.users,
    policy,
    xsrfExemptPrefixes: XSRF_EXEMPT,
    bearer: tokenGuard.authenticate,
  });

  registerWebAccessLog(app, { logDir: platform.admin.logDir });
  // Caddy asks before every certificate it would order, a flood of random names included: its answers are not
  // logged one by one (warnings and errors still are).
  app.addHook('onRoute', (route) => {
    if (route.url === ROUTES.tlsPermission.path) route.logLevel = 'warn';
  });
  decorateTokenRequests(app);
  const { runningApps } = platform;
  const webDist = options.webDist ?? WEB_DIST;
  registerRoutes(
    app,
    {
      ...authRoutes({
        auth: platform.auth,
        sessions: platform.sessions,
        policy,
        github: platform.githubOAuth,
      }),
      ...apiTokenRoutes({ apiTokens: platform.apiTokens }),
      ...customDomainRoutes({ customDomains: platform.customDomains.service }),
      ...apiReferenceRoutes(),
      ...enterpriseRoutes({ enterprise: platform.enterprise, limits }),
      ...repositoryRoutes({ repositories: platform.repositories }),
      ...envVariableRoutes({ envVariables: platform.envVariables }),
      ...billingRoutes({ billing: platform.billing }),
      ...deploymentRoutes({
        deployments: platform.deployments.service,
        setServiceReplicas: platform.deployments.setServiceReplicas,
        pubsub: platform.pubsub,
        buildLogs: platform.deployments.buildLogs,
        logStore: platform.deployments.logStore,
      }),
      ...deployOnPushRoutes({ deployOnPush: platform.deployOnPush }),
      ...previewRoutes({ previews: platform.previews }),
      ...backupRoutes({ backups: platform.backups.service }),
      ...adminRoutes({ admin: platform.admin, sessions: platform.sessions, policy, limits }),
      ...workspacesRoutes({ workspaces: runningApps.workspaces, lifecycle: platform.workspaceLifecycle }),
      ...logsRoutes({
        workspaces: runningApps.workspacesRepo,
        logStore: runningApps.logStore,
        pubsub: platform.pubsub,
      }),
      ...monitoringRoutes(runningApps),
      ...alertsRoutes(runningApps),
      ...notificationsRoutes({ ...runningApps, limits }),
      health: () => ({ status: 'ok' }),
      publicConfig: () => {
        const { paypal, demoVideoUrl } = platform.config;
        return {
          payments: paypal.clientId && paypal.clientSecret ? 'paypal' : 'free_beta',
          demo_video_url: demoVideoUrl ?? null,
        };
      },
      webApp: existsSync(path.join(webDist, 'index.html')) ? await serveWebApp(app, webDist) : undefined,
    },
    { admin: adminSessionCheck(platform.admin.access, policy), input: tokenGuard.checkWorkspace },
  );
  return app;
}

/** The built React app, with every non-API path answered by index.html so client routes survive a reload. */
async function serveWebApp(app: FastifyInstance, root: string): Promise<Handler<'webApp'>> {
  // The build wrote .br and .gz beside each asset (apps/web/build/precompress.ts): sent as the browser accepts.
  await app.register(fastifyStatic, { root, wildcard: false, index: ['index.html'], preCompressed: true });
  return ({ request, reply }) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send({ error: 'Not found', code: 'not_found', detail: 'Not found' });
    }
    const file = request.url.split('?')[0]!.slice(1);
    if (file && !file.includes('..') && existsSync(path.join(root, file)) && path.extname(file)) {
      return reply.sendFile(file);
    }
    return reply.type('text/html').sendFile('index.html');
  };
}
