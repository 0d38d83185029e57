import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { PublicConfig } from '@slipway/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { adminRoutes } from '../admin/routes.js';
import { alertsRoutes } from '../alerts/routes.js';
import { apiReferenceRoutes } from '../api-reference/routes.js';
import { apiTokenRoutes } from '../api-tokens/routes.js';
import { createTokenGuard } from '../api-tokens/tokenGuard.js';
import { registerRequestContext } from '../auth/requestContext.js';
import { authRoutes } from '../auth/routes.js';
import { cookiePolicy } from '../auth/sessionCookies.js';
import { billingRoutes } from '../billing/routes.js';
import { deployOnPushRoutes } from '../deploy-on-push/routes.js';
import { deploymentRoutes } from '../deployments/routes.js';
import { enterpriseRoutes } from '../enterprise/routes.js';
import { envVariableRoutes } from '../env-variables/routes.js';
import { registerErrorHandler } from '../http/errorHandler.js';
import { registerJsonBodyParser } from '../http/jsonBody.js';
import { createRateLimiter } from '../http/rateLimit.js';
import { frameSourcesFor, registerSecurityHeaders } from '../http/securityHeaders.js';
import { logsRoutes } from '../logs/routes.js';
import { monitoringRoutes } from '../monitoring/routes.js';
import { notificationsRoutes } from '../notifications/routes.js';
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

  authRoutes(app, { auth: platform.auth, sessions: platform.sessions, policy, github: platform.githubOAuth });
  apiTokenRoutes(app, { apiTokens: platform.apiTokens, guard: tokenGuard });
  enterpriseRoutes(app, { enterprise: platform.enterprise, limits });
  repositoryRoutes(app, { repositories: platform.repositories });
  envVariableRoutes(app, { envVariables: platform.envVariables });
  billingRoutes(app, { billing: platform.billing });
  deploymentRoutes(app, {
    deployments: platform.deployments.service,
    pubsub: platform.pubsub,
    buildLogs: platform.deployments.buildLogs,
    logStore: platform.deployments.logStore,
  });
  deployOnPushRoutes(app, { deployOnPush: platform.deployOnPush });
  adminRoutes(app, { admin: platform.admin, sessions: platform.sessions, policy, limits });
  workspacesRoutes(app, platform.runningApps);
  logsRoutes(app, {
    workspaces: platform.runningApps.workspacesRepo,
    logStore: platform.runningApps.logStore,
    pubsub: platform.pubsub,
  });
  monitoringRoutes(app, platform.runningApps);
  alertsRoutes(app, platform.runningApps);
  notificationsRoutes(app, { ...platform.runningApps, limits });
  apiReferenceRoutes(app);
  app.get('/api/health', async () => ({ status: 'ok' }));
  app.get('/api/public-config', async (): Promise<PublicConfig> => {
    const { paypal, demoVideoUrl } = platform.config;
    return {
      payments: paypal.clientId && paypal.clientSecret ? 'paypal' : 'free_beta',
      demo_video_url: demoVideoUrl ?? null,
    };
  });

  const webDist = options.webDist ?? WEB_DIST;
  if (existsSync(path.join(webDist, 'index.html'))) await serveWebApp(app, webDist);
  return app;
}

/** The built React app, with every non-API path answered by index.html so client routes survive a reload. */
async function serveWebApp(app: FastifyInstance, root: string) {
  // The build wrote .br and .gz beside each asset (apps/web/build/precompress.ts): sent as the browser accepts.
  await app.register(fastifyStatic, { root, wildcard: false, index: ['index.html'], preCompressed: true });
  app.get('/*', (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send({ error: 'Not found', code: 'not_found', detail: 'Not found' });
    }
    const file = request.url.split('?')[0]!.slice(1);
    if (file && !file.includes('..') && existsSync(path.join(root, file)) && path.extname(file)) {
      return reply.sendFile(file);
    }
    return reply.type('text/html').sendFile('index.html');
  });
}
