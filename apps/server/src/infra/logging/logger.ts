import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

export const LOG_FILES = { backend: 'api.log', frontend: 'web-access.log' } as const;
/** A log file is rotated (`api.log` → `api.log.1` … `.3`) once it passes this size. */
export const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
export const LOG_ROTATE_KEEP = 3;

export interface LogFileStream {
  write(chunk: string): boolean;
  end(): void;
}

/**
 * An append-only log file that rotates itself by size, so a long-running server never fills its disk
 * with one file, and the admin panel's tail stays cheap.
 */
export function createRotatingLogFile(
  file: string,
  options: { maxBytes?: number; keep?: number } = {},
): LogFileStream {
  const maxBytes = options.maxBytes ?? LOG_ROTATE_BYTES;
  const keep = options.keep ?? LOG_ROTATE_KEEP;
  mkdirSync(path.dirname(file), { recursive: true });
  const destination = pino.destination({ dest: file, sync: false, append: true, mkdir: true });
  let size = existsSync(file) ? statSync(file).size : 0;

  function rotate() {
    for (let n = keep - 1; n >= 1; n--) {
      if (existsSync(`${file}.${n}`)) renameSync(`${file}.${n}`, `${file}.${n + 1}`);
    }
    if (existsSync(file)) renameSync(file, `${file}.1`);
    // Whatever is still buffered lands in the new file; nothing is lost.
    destination.reopen();
    size = 0;
  }

  return {
    write(chunk) {
      if (size >= maxBytes) rotate();
      size += Buffer.byteLength(chunk);
      return destination.write(chunk);
    },
    end() {
      destination.end();
    },
  };
}

/** Never log these, wherever they appear in a logged object. */
const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  'adminPassword',
  '*.password',
  '*.adminPassword',
  '*.token',
  '*.value',
  '*.variables',
];

/** The API log goes to stdout and to a file in the data directory, which the admin panel reads. */
export function createLogger(options: { level: string; logDir: string | undefined }): Logger {
  const streams: pino.StreamEntry[] = [{ stream: process.stdout }];
  if (options.logDir) {
    mkdirSync(options.logDir, { recursive: true });
    streams.push({ stream: createRotatingLogFile(path.join(options.logDir, LOG_FILES.backend)) });
  }
  return pino(
    { level: options.level, redact: { paths: REDACT, censor: '[redacted]' } },
    pino.multistream(streams),
  );
}
