import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { LABELS } from '../infra/docker/conventions.js';

export interface ContainerEvent {
  action: string;
  containerId: string;
  labels: Record<string, string>;
  /** The engine's stamp. */
  time: Date;
  /** When it reached Slipway (ms since the epoch): a busy engine delivers its events late. */
  heardAt: number;
}

/**
 * The engine's container events for workspace containers, reconnecting when the stream drops
 * (engine restart, network blip) from the last event's second, so a listener may see an event twice
 * but misses none the engine still holds. Returns a function that stops listening.
 */
export function watchContainerEvents(
  docker: Docker,
  actions: string[],
  onEvent: (event: ContainerEvent) => void,
  logger: Logger,
  options: { since?: Date } = {},
): () => void {
  let stopped = false;
  let current: Readable | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** The last event's time (seconds): a reconnect asks for what happened since, so a blip loses nothing. */
  let since = options.since ? Math.floor(options.since.getTime() / 1000) : undefined;

  const connect = async () => {
    if (stopped) return;
    try {
      const stream = (await docker.getEvents({
        filters: { type: ['container'], event: actions, label: [LABELS.workspaceId] },
        ...(since === undefined ? {} : { since }),
      })) as unknown as Readable;
      if (stopped) {
        stream.destroy();
        return;
      }
      current = stream;
      let carry = '';
      stream.on('data', (chunk: Buffer) => {
        const parts = (carry + chunk.toString('utf8')).split('\n');
        carry = parts.pop() ?? '';
        for (const part of parts) {
          if (!part.trim()) continue;
          try {
            const raw = JSON.parse(part) as {
              Action?: string;
              status?: string;
              id?: string;
              Actor?: { ID?: string; Attributes?: Record<string, string> };
              timeNano?: number;
            };
            const action = (raw.Action ?? raw.status ?? '').split(':')[0] ?? '';
            const containerId = raw.Actor?.ID ?? raw.id ?? '';
            if (!containerId) continue;
            if (raw.timeNano) since = Math.floor(raw.timeNano / 1e9);
            onEvent({
              action,
              containerId,
              labels: raw.Actor?.Attributes ?? {},
              time: raw.timeNano ? new Date(raw.timeNano / 1e6) : new Date(),
              heardAt: Date.now(),
            });
          } catch (error) {
            logger.debug({ err: error }, 'unreadable docker event');
          }
        }
      });
      const reconnect = () => {
        if (current !== stream || stopped) return;
        current = undefined;
        retry = setTimeout(() => void connect(), 2000);
      };
      stream.on('end', reconnect);
      stream.on('error', reconnect);
      stream.on('close', reconnect);
    } catch (error) {
      logger.warn({ err: error }, 'docker events unavailable; retrying');
      retry = setTimeout(() => void connect(), 5000);
    }
  };
  void connect();

  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    current?.destroy();
    current = undefined;
  };
}
