/**
 * One line of every log stream — service logs (`/api/workspace-logs-stream`, `/api/logs/…?log_type=service`) and
 * build logs (`log_type=build`, service `build`, source `build`) alike: `data: ${ts}\t${service}\t${JSON payload}`.
 * The server writes it with formatLogStreamLine and every reader (the web app, the CLI) reads it with
 * parseLogStreamLine: one format, written and read in one place.
 */
export interface LogStreamLine {
  /** When the line was written (ISO 8601). */
  ts: string;
  service: string;
  log: string;
  source: 'stdout' | 'stderr' | 'build' | (string & {});
  container_id: string | null;
}

/** The JSON third field of a stream line. */
export type WorkspaceStreamPayload = Pick<LogStreamLine, 'log' | 'source' | 'container_id'>;

/** Tabs and line breaks would break the tab-separated line; the payload is JSON, so only the names need this. */
const field = (value: string) => value.replace(/[\t\r\n]/g, ' ');

/** A stream line's `data` (without the `data: ` prefix). */
export function formatLogStreamLine(line: LogStreamLine): string {
  const payload: WorkspaceStreamPayload = {
    log: line.log,
    source: line.source,
    container_id: line.container_id,
  };
  return `${field(line.ts)}\t${field(line.service)}\t${JSON.stringify(payload)}`;
}

/**
 * A stream line's `data` as the line it is; null for a blank one. A line without the two tabs, or whose payload
 * is not JSON, is read as text, so nothing the server sends is lost.
 */
export function parseLogStreamLine(data: string): LogStreamLine | null {
  if (!data.trim()) return null;
  const first = data.indexOf('\t');
  const second = first < 0 ? -1 : data.indexOf('\t', first + 1);
  if (first < 0 || second < 0)
    return { ts: '', service: '', log: data, source: 'stdout', container_id: null };
  const ts = data.slice(0, first);
  const service = data.slice(first + 1, second);
  const payloadText = data.slice(second + 1);
  try {
    const payload = JSON.parse(payloadText) as { log?: unknown; source?: unknown; container_id?: unknown };
    return {
      ts,
      service,
      log: typeof payload.log === 'string' ? payload.log : String(payload.log ?? ''),
      source: typeof payload.source === 'string' ? payload.source : 'stdout',
      container_id: typeof payload.container_id === 'string' ? payload.container_id : null,
    };
  } catch {
    return { ts, service, log: payloadText, source: 'stdout', container_id: null };
  }
}
