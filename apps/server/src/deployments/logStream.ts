import type { SseChannel } from '../http/sse.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { LogStore } from '../logs/logStore.js';
import { type ServiceLogMessage, toServiceLogMessage } from '../logs/logStore.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { BuildLogMessage, createBuildLogReader } from './buildLog.js';
import type { DeploymentRow } from './deploymentRepository.js';

/** Single-line text for an SSE `data:` field. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/**
 * Streams history then live lines, subscribing before reading the history and skipping ids already sent,
 * so no line is lost or doubled at the seam. Live lines come from pub/sub: any replica serves any stream.
 */
async function streamWithHistory<M extends { id: number }>(options: {
  pubsub: PubSub;
  channelName: string;
  follow: boolean;
  channel: SseChannel;
  history: () => Promise<M[]>;
  format: (message: M) => string | undefined;
  isMessage: (raw: unknown) => raw is M;
  isEnd?: (raw: unknown) => boolean;
  finishedAfterHistory?: () => Promise<boolean>;
}) {
  const { channel } = options;
  let lastId = 0;
  let backlog: unknown[] | undefined = [];
  const send = (message: M) => {
    const text = options.format(message);
    if (text !== undefined) channel.send(oneLine(text));
  };
  const handle = (raw: unknown) => {
    if (options.isEnd?.(raw)) return channel.close();
    if (!options.isMessage(raw) || raw.id <= lastId) return;
    lastId = raw.id;
    send(raw);
  };
  const unsubscribe = options.follow
    ? await options.pubsub.subscribe(options.channelName, (raw) =>
        backlog ? backlog.push(raw) : handle(raw),
      )
    : undefined;
  channel.onClose(() => void unsubscribe?.());
  // History may come in time order (service logs across containers), whose ids are not monotonic.
  for (const message of await options.history()) {
    send(message);
    lastId = Math.max(lastId, message.id);
  }
  const waiting = backlog ?? [];
  backlog = undefined;
  for (const raw of waiting) handle(raw);
  if (!options.follow || (await options.finishedAfterHistory?.())) channel.close();
}

export function streamBuildLog(
  deps: {
    pubsub: PubSub;
    reader: ReturnType<typeof createBuildLogReader>;
    reload: () => Promise<DeploymentRow | undefined>;
  },
  deployment: DeploymentRow,
  options: { initialLines: number; follow: boolean },
  channel: SseChannel,
) {
  type Line = Extract<BuildLogMessage, { type: 'line' }>;
  return streamWithHistory<Line>({
    pubsub: deps.pubsub,
    channelName: CHANNELS.buildLogs(deployment.id),
    follow: options.follow,
    channel,
    history: async () =>
      (await deps.reader.recent(deployment.id, options.initialLines)).map((row) => ({
        type: 'line' as const,
        id: row.id,
        ts: row.ts.toISOString(),
        line: row.line,
      })),
    format: (message) => message.line,
    isMessage: (raw): raw is Line => (raw as Line)?.type === 'line' && typeof (raw as Line).id === 'number',
    isEnd: (raw) => (raw as BuildLogMessage)?.type === 'end',
    finishedAfterHistory: async () => {
      const status = (await deps.reload())?.status;
      return status === 'completed' || status === 'failed';
    },
  });
}

export function streamServiceLog(
  deps: { pubsub: PubSub; logStore: LogStore },
  workspace: WorkspaceRow,
  options: { initialLines: number; follow: boolean; service?: string | undefined },
  channel: SseChannel,
) {
  return streamWithHistory<ServiceLogMessage>({
    pubsub: deps.pubsub,
    channelName: CHANNELS.serviceLogs(workspace.id),
    follow: options.follow,
    channel,
    history: async () =>
      (
        await deps.logStore.recent(workspace.userId, workspace.name, {
          limit: options.initialLines,
          service: options.service,
        })
      ).map(toServiceLogMessage),
    format: (message) =>
      options.service !== undefined && message.service !== options.service
        ? undefined
        : `[${message.service}] ${message.log}`,
    isMessage: (raw): raw is ServiceLogMessage => typeof (raw as ServiceLogMessage)?.id === 'number',
  });
}
