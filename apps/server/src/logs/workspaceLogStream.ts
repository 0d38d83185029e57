import type { SseChannel } from '../http/sse.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { LogStore } from './logStore.js';
import { type ServiceLogMessage, toServiceLogMessage } from './logStore.js';

/** Tabs and line breaks would break the tab-separated SSE line; the payload is JSON, so only names need this. */
const field = (value: string) => value.replace(/[\t\r\n]/g, ' ');

/** The spec's stream line: timestamp, service and a JSON payload, tab-separated. */
export function formatStreamLine(line: Omit<ServiceLogMessage, 'id'>): string {
  return `${field(line.ts)}\t${field(line.service)}\t${JSON.stringify({
    log: line.log,
    source: line.source,
    container_id: line.container_id,
  })}`;
}

/**
 * History, then (with follow) live lines from pub/sub — never from Docker, so a thousand viewers cost
 * the engine nothing and any replica serves any workspace. Subscribing before reading the history and
 * skipping ids already sent means no line is lost or shown twice at the seam.
 */
export async function streamWorkspaceLogs(
  deps: { logStore: LogStore; pubsub: PubSub },
  workspace: WorkspaceRow,
  options: { initialLines: number; follow: boolean; service: string | undefined },
  channel: SseChannel,
): Promise<void> {
  let lastSentId = 0;
  let backlog: ServiceLogMessage[] | undefined = [];
  const send = (message: ServiceLogMessage) => {
    if (options.service !== undefined && message.service !== options.service) return;
    channel.send(formatStreamLine(message));
  };
  // History comes in time order, whose ids are not monotonic; live lines come in id order after it.
  const deliver = (message: ServiceLogMessage) => {
    if (message.id <= lastSentId) return;
    lastSentId = message.id;
    send(message);
  };
  const unsubscribe = options.follow
    ? await deps.pubsub.subscribe(CHANNELS.serviceLogs(workspace.id), (message) => {
        const line = message as ServiceLogMessage;
        if (typeof line?.id !== 'number') return;
        if (backlog) backlog.push(line);
        else deliver(line);
      })
    : undefined;
  channel.onClose(() => void unsubscribe?.());

  const history = await deps.logStore.recent(workspace.userId, workspace.name, {
    limit: options.initialLines,
    service: options.service,
  });
  for (const line of history) send(toServiceLogMessage(line));
  lastSentId = history.reduce((highest, line) => Math.max(highest, line.id), 0);
  const waiting = backlog ?? [];
  backlog = undefined;
  for (const line of waiting) deliver(line);
  if (!options.follow) channel.close();
}
