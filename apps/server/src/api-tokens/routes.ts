import { apiTokenIdParamsSchema, createApiTokenSchema } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { ApiTokensService } from './apiTokensService.js';
import type { TokenGuard } from './tokenGuard.js';

/** Account Settings → API Tokens, and the token checks every API request goes through. */
export function apiTokenRoutes(
  app: FastifyInstance,
  deps: { apiTokens: ApiTokensService; guard: TokenGuard },
) {
  const { apiTokens } = deps;
  app.decorateRequest('apiToken', undefined);
  app.addHook('preValidation', async (request) => deps.guard.checkWorkspace(request));
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/api-tokens', guard, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return apiTokens.list(currentUser(request).id);
  });

  app.post('/api/api-tokens', guard, async (request, reply) => {
    const created = await apiTokens.create(currentUser(request), parse(createApiTokenSchema, request.body));
    // Shown once: no cache may keep it.
    reply.header('cache-control', 'no-store');
    return reply.status(201).send(created);
  });

  app.delete('/api/api-tokens/:id', guard, async (request) => {
    const { id } = parse(apiTokenIdParamsSchema, request.params);
    return apiTokens.revoke(currentUser(request), id);
  });
}
