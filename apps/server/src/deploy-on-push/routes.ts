import { deployOnPushSchema, workspaceNameParamSchema } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { DeployOnPushModule } from './deployOnPushModule.js';

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export function deployOnPushRoutes(app: FastifyInstance, deps: { deployOnPush: DeployOnPushModule }) {
  const { deployOnPush } = deps;
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/workspace-deploy-on-push/:name', guard, async (request) => {
    const { name } = parse(workspaceNameParamSchema, request.params);
    return deployOnPush.settings.get(currentUser(request), name);
  });

  app.put('/api/workspace-deploy-on-push/:name', { ...guard, bodyLimit: 1024 }, async (request) => {
    const { name } = parse(workspaceNameParamSchema, request.params);
    const { enabled } = parse(deployOnPushSchema, request.body);
    return deployOnPush.settings.set(currentUser(request), name, enabled);
  });

  // GitHub signs the exact bytes it sent, so this route keeps the body as they came.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, raw, done) => done(null, raw),
    );
    scope.post('/api/webhooks/github', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request) =>
      deployOnPush.webhook.receive(
        Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        request.headers,
      ),
    );
  });
}
