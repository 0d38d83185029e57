import { workspaceNameParamSchema } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { WorkspacesService } from './workspacesService.js';

export function workspacesRoutes(app: FastifyInstance, deps: { workspaces: WorkspacesService }) {
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/user-workspaces', guard, async (request) => deps.workspaces.list(currentUser(request).id));

  app.get('/api/workspace-details/:name', guard, async (request) => {
    const { name } = parse(workspaceNameParamSchema, request.params);
    return deps.workspaces.details(currentUser(request).id, name);
  });

  app.get('/api/workspace-services/:name', guard, async (request) => {
    const { name } = parse(workspaceNameParamSchema, request.params);
    return deps.workspaces.services(currentUser(request).id, name);
  });
}
