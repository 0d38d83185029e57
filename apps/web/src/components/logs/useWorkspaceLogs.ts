import { useCallback, useEffect, useRef, useState } from 'react';
import { streamWorkspaceLogs, useWorkspaceLogHistory, useWorkspaceServices } from '../../api/workspaces';
import {
  capLines,
  entryText,
  type LogLine,
  lineKey,
  logLevelOf,
  MAX_LOG_LINES,
  parseStreamLine,
} from './logParsing';

const FLUSH_MS = 100;

export interface WorkspaceLogsState {
  lines: LogLine[];
  /** Changes whenever `lines` (a mutable buffer) changed. */
  version: number;
  services: string[];
  service: string;
  setService: (service: string) => void;
  follow: boolean;
  setFollow: (follow: boolean) => void;
  streaming: boolean;
  startStream: () => void;
  stopStream: () => void;
  clear: () => void;
  historyLoading: boolean;
  historyError: boolean;
  streamError: string | null;
}

/**
 * History (GET /api/workspace-logs) plus the live stream, in one capped buffer. Live lines arrive in
 * batches every 100 ms so a fast stream re-renders ten times a second, not once per line.
 */
export function useWorkspaceLogs(
  workspace: string,
  options: { canStream: boolean; autoStart: boolean; refreshKey?: number },
): WorkspaceLogsState {
  const [service, setService] = useState('');
  const [follow, setFollow] = useState(true);
  const [streaming, setStreaming] = useState(false);
  const [streamError, setStreamError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const buffer = useRef<LogLine[]>([]);
  const pending = useRef<LogLine[]>([]);
  const seen = useRef<Set<string>>(new Set());
  const nextId = useRef(0);
  const abort = useRef<AbortController | null>(null);

  const services = useWorkspaceServices(workspace);
  const history = useWorkspaceLogHistory(workspace, service, options.refreshKey ?? 0);

  useEffect(() => {
    if (!history.data) return;
    const lines: LogLine[] = history.data
      .filter((entry) => !service || entry.service === service)
      .map((entry) => {
        const text = entryText(entry);
        return {
          id: nextId.current++,
          timestamp: entry.timestamp ?? '',
          service: entry.service ?? '',
          text,
          source: entry.source ?? 'stdout',
          level: logLevelOf(text),
          live: false,
        };
      });
    capLines(lines, MAX_LOG_LINES);
    seen.current = new Set(lines.slice(-500).map(lineKey));
    const live = buffer.current.filter((line) => line.live);
    buffer.current = [...lines, ...live.filter((line) => !seen.current.has(lineKey(line)))];
    setVersion((v) => v + 1);
  }, [history.data, service]);

  const flush = useCallback(() => {
    if (pending.current.length === 0) return;
    buffer.current.push(...pending.current);
    pending.current = [];
    capLines(buffer.current, MAX_LOG_LINES);
    setVersion((v) => v + 1);
  }, []);

  const stopStream = useCallback(() => {
    abort.current?.abort();
    abort.current = null;
    setStreaming(false);
  }, []);

  const startStream = useCallback(() => {
    if (!options.canStream || abort.current) return;
    const controller = new AbortController();
    abort.current = controller;
    setStreamError(null);
    setStreaming(true);
    const timer = window.setInterval(flush, FLUSH_MS);
    streamWorkspaceLogs(workspace, {
      follow,
      service,
      signal: controller.signal,
      onLine: (raw) => {
        const parsed = parseStreamLine(raw);
        if (!parsed) return;
        const key = lineKey(parsed);
        // The stream replays its last lines first; the history already shows them.
        if (seen.current.has(key)) {
          seen.current.delete(key);
          return;
        }
        pending.current.push({
          id: nextId.current++,
          timestamp: parsed.timestamp,
          service: parsed.service,
          text: parsed.text,
          source: parsed.source,
          level: logLevelOf(parsed.text),
          live: true,
        });
      },
    })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setStreamError(error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        window.clearInterval(timer);
        flush();
        if (abort.current === controller) {
          abort.current = null;
          setStreaming(false);
        }
      });
  }, [workspace, follow, service, options.canStream, flush]);

  // A new workspace starts from nothing; the stream follows it when asked to start on its own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the workspace changes
  useEffect(() => {
    buffer.current = [];
    pending.current = [];
    seen.current = new Set();
    setService('');
    setVersion((v) => v + 1);
    return () => {
      abort.current?.abort();
      abort.current = null;
      setStreaming(false);
    };
  }, [workspace]);

  const autoStarted = useRef<string | null>(null);
  useEffect(() => {
    if (!options.autoStart || !options.canStream || !history.isFetched) return;
    if (autoStarted.current === workspace) return;
    autoStarted.current = workspace;
    startStream();
  }, [options.autoStart, options.canStream, history.isFetched, workspace, startStream]);

  const clear = useCallback(() => {
    buffer.current = [];
    pending.current = [];
    setVersion((v) => v + 1);
  }, []);

  return {
    lines: buffer.current,
    version,
    services: services.data ?? [],
    service,
    setService,
    follow,
    setFollow,
    streaming,
    startStream,
    stopStream,
    clear,
    historyLoading: history.isLoading,
    historyError: history.isError,
    streamError,
  };
}
