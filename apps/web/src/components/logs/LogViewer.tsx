import { ArrowDownToLine, Play, Square, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Alert, Button, Card, CardHeader, Spinner } from '../ui';
import { LogList } from './LogList';
import { useWorkspaceLogs } from './useWorkspaceLogs';

/**
 * Workspace logs: service filter, Follow, Auto-scroll, scroll-to-bottom, Clear, Start/Stop Stream,
 * a line count, the stored history and the live stream.
 */
export function LogViewer({
  workspace,
  canStream,
  autoStart = true,
  refreshKey,
  title = 'Workspace Logs',
}: {
  workspace: string;
  /** Spec: log streaming starts only when owner and repo are present. */
  canStream: boolean;
  autoStart?: boolean;
  refreshKey?: number;
  title?: string;
}) {
  const logs = useWorkspaceLogs(workspace, { canStream, autoStart, refreshKey });
  const [autoScroll, setAutoScroll] = useState(true);
  const scrollRef = useRef<HTMLDivElement>(null);
  const liveCount = logs.lines.reduce((count, line) => count + (line.live ? 1 : 0), 0);

  const scrollToBottom = () => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
    setAutoScroll(true);
  };

  return (
    <Card className="flex min-w-0 flex-col">
      <CardHeader
        title={title}
        description={
          <span data-testid="log-line-count">
            {logs.lines.length.toLocaleString()} {logs.lines.length === 1 ? 'line' : 'lines'}
            {liveCount > 0 && ` (${liveCount.toLocaleString()} live)`}
          </span>
        }
        action={
          logs.streaming ? (
            <span className="inline-flex items-center gap-1.5 text-xs font-medium text-emerald-700">
              <span className="h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-hidden="true" />
              Streaming
            </span>
          ) : undefined
        }
      />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-100 px-6 py-3 text-sm">
        <label className="flex items-center gap-2">
          <span className="text-zinc-600">Service</span>
          <select
            aria-label="Service filter"
            value={logs.service}
            disabled={logs.streaming}
            onChange={(event) => logs.setService(event.target.value)}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm disabled:bg-zinc-50 disabled:text-zinc-500"
          >
            <option value="">All Services</option>
            {logs.services.map((service) => (
              <option key={service} value={service}>
                {service}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={logs.follow}
            disabled={logs.streaming}
            onChange={(event) => logs.setFollow(event.target.checked)}
          />
          Follow
        </label>
        <label className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={autoScroll}
            onChange={(event) => setAutoScroll(event.target.checked)}
          />
          Auto-scroll
        </label>
        <div className="ml-auto flex flex-wrap gap-2">
          <Button size="sm" variant="ghost" onClick={scrollToBottom} icon={ArrowDownToLine}>
            Bottom
          </Button>
          <Button size="sm" variant="ghost" onClick={logs.clear} icon={Trash2}>
            Clear
          </Button>
          {logs.streaming ? (
            <Button size="sm" variant="secondary" onClick={logs.stopStream} icon={Square}>
              Stop Stream
            </Button>
          ) : (
            <Button
              size="sm"
              onClick={logs.startStream}
              disabled={!canStream}
              title={canStream ? undefined : 'The repository of this workspace is not known'}
              icon={Play}
            >
              Start Stream
            </Button>
          )}
        </div>
      </div>
      <div className="space-y-3 p-4">
        {logs.streamError && <Alert tone="error">{logs.streamError}</Alert>}
        {logs.historyError && <Alert tone="warning">The stored log history could not be loaded.</Alert>}
        {logs.historyLoading ? (
          <div className="flex h-[28rem] items-center justify-center gap-2 rounded-lg bg-zinc-950 text-sm text-zinc-400">
            <Spinner size="sm" /> Loading logs...
          </div>
        ) : logs.lines.length === 0 ? (
          <div className="flex h-[28rem] items-center justify-center rounded-lg bg-zinc-950 text-sm text-zinc-400">
            No logs available
          </div>
        ) : (
          <LogList
            lines={logs.lines}
            version={logs.version}
            autoScroll={autoScroll}
            onAutoScrollChange={setAutoScroll}
            scrollRef={scrollRef}
          />
        )}
      </div>
    </Card>
  );
}
