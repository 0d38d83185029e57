import {
  workspaceLogStreamQuerySchema,
  workspaceLogsQuerySchema,
  workspaceNameParamSchema,
} from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { openSse } from '../http/sse.js';
import { parse } from '../http/validate.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { LogStore } from '../logs/logStore.js';
import { streamWorkspaceLogs } from '../logs/workspaceLogStream.js';
import type { WorkspacesService } from './workspacesService.js';

export function workspacesRoutes(
  app: FastifyInstance,
  deps: { workspaces: WorkspacesService; logStore: LogStore; pubsub: PubSub },
) {
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

  app.get('/api/workspace-logs/:name', guard, async (request) => {
    const { name } = parse(workspaceNameParamSchema, request.params);
    const query = parse(workspaceLogsQuerySchema, request.query);
    return deps.workspaces.logs(currentUser(request).id, name, query);
  });

  app.get('/api/workspace-logs-stream/:name', guard, async (request, reply) => {
    const { name } = parse(workspaceNameParamSchema, request.params);
    const query = parse(workspaceLogStreamQuerySchema, request.query);
    // Resolved before the stream opens, so another user's name is a plain 404.
    const workspace = await deps.workspaces.findOwned(currentUser(request).id, name);
    const channel = openSse(request, reply);
    try {
      await streamWorkspaceLogs(
        deps,
        workspace,
        { initialLines: query.initial_lines, follow: query.follow, service: query.service },
        channel,
      );
    } catch (error) {
      request.log.error({ err: error }, 'log stream failed');
      channel.close();
    }
  });
}
