import type { RouteHandlers } from '../http/registerRoutes.js';
import { openSse } from '../http/sse.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { LogStore } from './logStore.js';
import { streamServiceLogs } from './logStream.js';
import { presentLogLine } from './presenter.js';

/** A workspace's stored logs: the latest lines, and the stream of history then live lines. */
export function logsRoutes(deps: {
  workspaces: Pick<WorkspacesRepository, 'findOwned'>;
  logStore: LogStore;
  pubsub: PubSub;
}) {
  return {
    workspaceLogs: async ({ user, params, query }) => {
      const workspace = await deps.workspaces.findOwned(user.id, params.name);
      const lines = await deps.logStore.recent(workspace.userId, workspace.name, {
        limit: query.lines,
        service: query.service,
      });
      return { logs: lines.map(presentLogLine) };
    },
    workspaceLogStream: async ({ user, params, query, request, reply }) => {
      // Resolved before the stream opens, so another user's name is a plain 404.
      const workspace = await deps.workspaces.findOwned(user.id, params.name);
      const channel = openSse(request, reply);
      try {
        await streamServiceLogs(
          deps,
          workspace,
          { initialLines: query.initial_lines, follow: query.follow, service: query.service },
          channel,
        );
      } catch (error) {
        request.log.error({ err: error }, 'log stream failed');
        channel.close();
      }
    },
  } satisfies Partial<RouteHandlers>;
}
