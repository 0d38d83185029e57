import { parseLogStreamLine, type WorkspaceLogEntry } from '@slipway/contract';

export type LogLevel = 'error' | 'warning' | 'success' | 'info';

/** One line as the log viewer shows it. */
export interface LogLine {
  id: number;
  timestamp: string;
  service: string;
  text: string;
  source: string;
  level: LogLevel;
  live: boolean;
}

/** Spec: the level derives from the text — contains error, warning or success, otherwise info. */
export function logLevelOf(text: string): LogLevel {
  const lower = text.toLowerCase();
  if (lower.includes('error')) return 'error';
  if (lower.includes('warning')) return 'warning';
  if (lower.includes('success')) return 'success';
  return 'info';
}

export interface ParsedStreamLine {
  timestamp: string;
  service: string;
  text: string;
  source: string;
  containerId: string | null;
}

const DATA_PREFIX = 'data: ';

/**
 * One line of a log stream (every one: service and build logs, contract `LogStreamLine`):
 * `data: ${timestamp}\t${service}\t${JSON{log, source, container_id}}`. Returns null for keep-alives, comments
 * and blank lines. A payload that is not JSON is shown as text.
 */
export function parseStreamLine(raw: string): ParsedStreamLine | null {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (!line.startsWith(DATA_PREFIX)) return null;
  return parseStreamData(line.slice(DATA_PREFIX.length));
}

/** The same line as an EventSource hands it over: its `data` without the prefix (read by the contract's parser). */
export function parseStreamData(body: string): ParsedStreamLine | null {
  const line = parseLogStreamLine(body);
  if (!line) return null;
  return {
    timestamp: line.ts,
    service: line.service,
    text: line.log.replace(/\r?\n$/, ''),
    source: line.source,
    containerId: line.container_id,
  };
}

/** A stored entry from GET /api/workspace-logs (message or content, per the spec's Log entry). */
export function entryText(entry: Partial<WorkspaceLogEntry> & { content?: string }): string {
  return entry.message ?? entry.content ?? '';
}

/** Identifies a line across history and the stream's replayed initial lines. */
export function lineKey(line: { timestamp: string; service: string; text: string }): string {
  return `${line.timestamp}\u0000${line.service}\u0000${line.text}`;
}

/** 'HH:MM:SS' in the viewer's time zone, or the raw text when it is not a date. */
export function shortTime(timestamp: string): string {
  if (!timestamp) return '';
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  return date.toLocaleTimeString([], { hour12: false });
}

/** Keeps the newest `max` lines: drops the oldest in place and says how many went. */
export function capLines<T>(lines: T[], max: number): number {
  const excess = lines.length - max;
  if (excess <= 0) return 0;
  lines.splice(0, excess);
  return excess;
}

/** Spec: auto-scroll stays on only while the view is within 10 px of the bottom. */
export const BOTTOM_TOLERANCE_PX = 10;

export function isAtBottom(el: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_TOLERANCE_PX;
}

/** The most lines the viewer keeps in memory; older ones are dropped. */
export const MAX_LOG_LINES = 100_000;
