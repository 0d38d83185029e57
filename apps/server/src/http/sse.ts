import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';

const HEARTBEAT_MS = 15_000;
/** A viewer this far behind is cut off rather than letting its backlog grow in server memory. */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;

export interface SseChannel {
  /** Sends one `data:` event; false once the client is gone. */
  send(data: string): boolean;
  close(): void;
  readonly closed: boolean;
  onClose(listener: () => void): void;
}

/**
 * Takes over the response for Server-Sent Events, with heartbeats so proxies keep the connection open. The
 * stream ends when the credential it was opened with does (`request.credentialEnd`: a revoked API token).
 */
export function openSse(request: FastifyRequest, reply: FastifyReply): SseChannel {
  const credentialEnd = request.credentialEnd;
  if (credentialEnd?.aborted) {
    throw new DomainError(
      'unauthenticated',
      'This API token is not valid: it may have expired or been revoked',
    );
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders?.();
  const listeners: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    credentialEnd?.removeEventListener('abort', close);
    clearInterval(heartbeat);
    for (const listener of listeners) listener();
    raw.end();
  };
  const heartbeat = setInterval(() => {
    if (!closed) raw.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  request.raw.on('close', close);
  raw.on('close', close);
  raw.on('error', close);
  credentialEnd?.addEventListener('abort', close, { once: true });
  return {
    send(data) {
      if (closed) return false;
      raw.write(`data: ${data}\n\n`);
      if (raw.writableLength > MAX_BACKLOG_BYTES) close();
      return !closed;
    },
    close,
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}
