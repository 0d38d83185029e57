import { formatLogStreamLine, type LogStreamLine } from '@slipway/contract';
import type { SseChannel } from '../http/sse.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { type LogStore, type ServiceLogMessage, toServiceLogMessage } from './logStore.js';

/** Sent on a workspace's log channel once its lines up to `through` (an id) are stored. */
export interface StoredMark {
  type: 'stored';
  through: number;
}

export const storedMark = (through: number): StoredMark => ({ type: 'stored', through });

const isStoredMark = (raw: unknown): raw is StoredMark =>
  (raw as StoredMark)?.type === 'stored' && typeof (raw as StoredMark).through === 'number';

/**
 * History, then (with follow) live lines from pub/sub — never from Docker, so a thousand viewers cost the engine
 * nothing and any replica serves any stream. Subscribing before reading the history and skipping ids already
 * sent means no line is lost or shown twice at the seam. `toLine` leaves out what the viewer did not ask for.
 *
 * With `catchUp` (lines published before they are stored, then a {@link StoredMark}), a line published before
 * the viewer subscribed may be stored only after its history was read. So after the history the viewer holds
 * its live lines, and at each mark reads the stored lines past the last it sent; once a mark covers the first
 * line it got live, everything published before it joined is stored and sent, and the held lines follow.
 */
export async function streamWithHistory<M extends { id: number }>(options: {
  pubsub: PubSub;
  channelName: string;
  follow: boolean;
  channel: SseChannel;
  history: () => Promise<M[]>;
  toLine: (message: M) => LogStreamLine | undefined;
  isMessage: (raw: unknown) => raw is M;
  /** A message that ends the stream (a finished build). */
  isEnd?: (raw: unknown) => boolean;
  /** Whether there is nothing live left to wait for once the history is sent. */
  finishedAfterHistory?: () => Promise<boolean>;
  /** Stored lines with ids in (afterId, throughId], in id order. */
  catchUp?: (afterId: number, throughId: number) => Promise<M[]>;
}) {
  const { channel, catchUp } = options;
  let lastId = 0;
  let backlog: unknown[] | undefined = [];
  /** Live lines held until the stores caught up with them (only with `catchUp`). */
  let held: M[] | undefined = catchUp ? [] : undefined;
  let catchingUp: Promise<void> = Promise.resolve();
  const send = (message: M) => {
    const line = options.toLine(message);
    if (line) channel.send(formatLogStreamLine(line));
  };
  const sendNew = (messages: M[]) => {
    for (const message of messages.sort((a, b) => a.id - b.id)) {
      if (message.id <= lastId) continue;
      lastId = message.id;
      send(message);
    }
  };
  const onStored = async (through: number) => {
    if (!held || !catchUp) return;
    if (through > lastId) sendNew(await catchUp(lastId, through));
    const first = held[0];
    if (first === undefined || first.id > through) return;
    const waiting = held;
    held = undefined;
    sendNew(waiting);
  };
  const handle = (raw: unknown) => {
    if (options.isEnd?.(raw)) return channel.close();
    if (isStoredMark(raw)) {
      const { through } = raw;
      catchingUp = catchingUp.then(() => onStored(through)).catch(() => channel.close());
      return;
    }
    if (!options.isMessage(raw) || raw.id <= lastId) return;
    if (held) return void held.push(raw);
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

/** A workspace's service logs, all services or one: the dashboard's stream and the deployment's service logs. */
export function streamServiceLogs(
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
    catchUp: async (afterId, throughId) =>
      (
        await deps.logStore.storedBetween(workspace.userId, workspace.name, {
          afterId,
          throughId,
          limit: options.initialLines,
          service: options.service,
        })
      ).map(toServiceLogMessage),
    toLine: ({ id: _id, ...line }) =>
      options.service !== undefined && line.service !== options.service ? undefined : line,
    isMessage: (raw): raw is ServiceLogMessage => typeof (raw as ServiceLogMessage)?.id === 'number',
  });
}
