import { routeUrl } from './routeClient';

/** Build output of the deployment, or the running services' output. */
export type LogType = 'build' | 'service';

export const BUILD_INITIAL_LINES = 10;
export const SERVICE_INITIAL_LINES = 20;

/** SSE GET /api/logs/{owner}/{repo}/stream?log_type=&initial_lines=&follow=true */
export function logStreamUrl(owner: string, repo: string, logType: LogType): string {
  const params = new URLSearchParams({
    log_type: logType,
    initial_lines: String(logType === 'build' ? BUILD_INITIAL_LINES : SERVICE_INITIAL_LINES),
    follow: 'true',
  });
  return `${routeUrl('deploymentLogStream', { owner, repo })}?${params}`;
}

export interface LogLine {
  id: string;
  timestamp?: string;
  text: string;
}

let sequence = 0;

/**
 * One SSE message as a log line. The server sends each line as plain text; a JSON object with a
 * `line`, `content`, `message` or `log` field is read as such a line. Anything else is shown as
 * the text it is (never interpreted as HTML).
 */
export function parseLogMessage(data: string): LogLine {
  sequence += 1;
  const id = `log-${sequence}`;
  if (data.startsWith('{')) {
    try {
      const record = JSON.parse(data) as Record<string, unknown>;
      const text = [record.line, record.content, record.message, record.log].find(
        (v) => typeof v === 'string',
      );
      if (typeof text === 'string') {
        const prefix = typeof record.service === 'string' && record.service ? `[${record.service}] ` : '';
        const timestamp = [record.timestamp, record.ts].find((v) => typeof v === 'string');
        return { id, ...(typeof timestamp === 'string' ? { timestamp } : {}), text: `${prefix}${text}` };
      }
    } catch {
      // not JSON: plain text
    }
  }
  return { id, text: data };
}
