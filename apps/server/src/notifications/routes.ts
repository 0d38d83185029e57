import { alertConfigSchema, testSinkBodySchema, testSinkParamsSchema } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RateLimiter } from '../http/rateLimit.js';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { AlertConfigService } from './alertConfigService.js';

const workspaceParams = z.object({ workspace: z.string().min(1).max(200) });

export function notificationsRoutes(
  app: FastifyInstance,
  deps: { alertConfigs: AlertConfigService; limits: RateLimiter },
) {
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/alerts/config/:workspace', guard, async (request) => {
    const { workspace } = parse(workspaceParams, request.params);
    return deps.alertConfigs.get(currentUser(request).id, workspace);
  });

  app.put('/api/alerts/config/:workspace', guard, async (request) => {
    const { workspace } = parse(workspaceParams, request.params);
    const config = parse(alertConfigSchema, request.body ?? {});
    return deps.alertConfigs.save(currentUser(request).id, workspace, config);
  });

  app.post('/api/alerts/test/:workspace/:sink_type', guard, async (request) => {
    const params = parse(testSinkParamsSchema, request.params);
    const { config } = parse(testSinkBodySchema, request.body ?? {});
    const user = currentUser(request);
    // Per user, whatever the workspace or channel: the address is the user's to choose.
    await deps.limits.hit('testNotification', user.id);
    return deps.alertConfigs.test(user.id, params.workspace, params.sink_type, config);
  });
}
