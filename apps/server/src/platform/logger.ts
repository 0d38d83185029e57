import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

export const LOG_FILES = { backend: 'api.log', frontend: 'web-access.log' } as const;

/** Never log these, wherever they appear in a logged object. */
const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
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
    streams.push({
      stream: pino.destination({ dest: path.join(options.logDir, LOG_FILES.backend), sync: false }),
    });
  }
  return pino(
    { level: options.level, redact: { paths: REDACT, censor: '[redacted]' } },
    pino.multistream(streams),
  );
}
