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
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { LogStore } from './logStore.js';
import { presentLogLine } from './presenter.js';
import { streamWorkspaceLogs } from './workspaceLogStream.js';

/** A workspace's stored logs: the latest lines, and the stream of history then live lines. */
export function logsRoutes(
  app: FastifyInstance,
  deps: { workspaces: Pick<WorkspacesRepository, 'findOwned'>; logStore: LogStore; pubsub: PubSub },
) {
  const guard = { preHandler: requireWhitelisted };

  app.get('/api/workspace-logs/:name', guard, async (request) => {
    const { name } = parse(workspaceNameParamSchema, request.params);
    const query = parse(workspaceLogsQuerySchema, request.query);
    const workspace = await deps.workspaces.findOwned(currentUser(request).id, name);
    const lines = await deps.logStore.recent(workspace.userId, workspace.name, {
      limit: query.lines,
      service: query.service,
    });
    return { logs: lines.map(presentLogLine) };
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
