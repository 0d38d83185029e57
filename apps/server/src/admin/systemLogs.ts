import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SystemLogService, SystemLogStatus } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { createRotatingLogFile, LOG_FILES, type LogFileStream } from '../infra/logging/logger.js';

const CHUNK = 64 * 1024;

/**
 * The last `lines` lines of a file, read backwards in chunks: a 10 MB log costs a few reads, not 10 MB
 * of memory. A missing file has no lines.
 */
export async function readLastLines(file: string, lines: number): Promise<string[]> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch {
    return [];
  }
  try {
    const { size } = await handle.stat();
    const chunks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    // One newline more than lines wanted marks where the first wanted line starts.
    while (position > 0 && newlines <= lines) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, position);
      chunks.unshift(buffer);
      for (const byte of buffer) if (byte === 10) newlines += 1;
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const all = text.split('\n');
    if (all.at(-1) === '') all.pop();
    return all.slice(-lines);
  } finally {
    await handle.close();
  }
}

/** The server's own logs: the API log (backend) and the web app's access log (frontend). */
export function createSystemLogs(deps: { logDir: string }) {
  const fileOf = (service: SystemLogService) => path.join(deps.logDir, LOG_FILES[service]);

  async function status(service: SystemLogService): Promise<SystemLogStatus> {
    try {
      const info = await stat(fileOf(service));
      return { status: 'available', file_size: info.size, last_modified: info.mtime.toISOString() };
    } catch {
      return { status: 'missing', file_size: 0, last_modified: null };
    }
  }

  return {
    async services() {
      const [backend, frontend] = await Promise.all([status('backend'), status('frontend')]);
      return { services: { backend, frontend } };
    },
    async tail(service: SystemLogService, lines: number) {
      return { service, logs: await readLastLines(fileOf(service), lines) };
    },
  };
}

export type SystemLogs = ReturnType<typeof createSystemLogs>;

/**
 * Writes one line per request for the web app (every non-API path) in the combined log format, to
 * `web-access.log`, which the admin panel shows as the frontend log.
 */
export function registerWebAccessLog(app: FastifyInstance, deps: { logDir: string }) {
  let file: LogFileStream | undefined;
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/api/')) return;
    file ??= createRotatingLogFile(path.join(deps.logDir, LOG_FILES.frontend));
    const quote = (value: string | undefined) => (value ? JSON.stringify(value) : '"-"');
    const length = reply.getHeader('content-length') ?? '-';
    file.write(
      `${request.ip} - - [${new Date().toISOString()}] "${request.method} ${request.url} HTTP/${request.raw.httpVersion}" ` +
        `${reply.statusCode} ${length} ${quote(request.headers.referer)} ${quote(request.headers['user-agent'])} ` +
        `${Math.round(reply.elapsedTime)}ms\n`,
    );
  });
  app.addHook('onClose', async () => {
    file?.end();
  });
}
