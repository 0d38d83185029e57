import { Terminal } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { LogType } from '../../api/logs';
import type { LogLine } from '../../components/logs/logParsing';
import { Badge } from '../../components/ui';

/** The deployment's log lines, rendered as plain text (never as HTML), following the newest line. */
export function LogPanel({ lines, logType }: { lines: LogLine[]; logType: LogType | null }) {
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  useEffect(() => {
    const element = scroller.current;
    if (element && stick.current && lines.length > 0) element.scrollTop = element.scrollHeight;
  }, [lines]);

  return (
    <section
      className="overflow-hidden rounded-xl border border-zinc-800 bg-zinc-950 shadow-sm"
      aria-label="Deployment logs"
    >
      <div className="flex items-center justify-between border-b border-zinc-800 px-4 py-2.5">
        <span className="inline-flex items-center gap-2 text-sm font-medium text-zinc-200">
          <Terminal className="h-4 w-4" aria-hidden="true" /> Logs
        </span>
        {logType && (
          <Badge tone={logType === 'build' ? 'info' : 'success'} dot>
            {logType === 'build' ? 'Build logs' : 'Service logs'}
          </Badge>
        )}
      </div>
      <div
        ref={scroller}
        data-testid="log-lines"
        onScroll={(event) => {
          const element = event.currentTarget;
          stick.current = element.scrollHeight - element.scrollTop - element.clientHeight < 10;
        }}
        className="h-80 overflow-y-auto px-4 py-3 font-mono text-xs leading-relaxed text-zinc-300"
      >
        {lines.length === 0 ? (
          <p className="text-zinc-500">Logs appear here once the build starts...</p>
        ) : (
          lines.map((line) => (
            <div key={line.id} className="break-all whitespace-pre-wrap">
              {line.source === 'build' || !line.service ? line.text : `[${line.service}] ${line.text}`}
            </div>
          ))
        )}
      </div>
    </section>
  );
}
