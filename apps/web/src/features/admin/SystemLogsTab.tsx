import type { SystemLogService } from '@slipway/contract';
import { useEffect, useRef } from 'react';
import { useSystemLogs } from '../../api/adminQueries';
import { Badge, Card } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';
import { formatBytes } from '../../lib/units';
import { lastLines, SYSTEM_LOG_LINES_SHOWN } from './adminFormat';
import { LOAD_FAILURE } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { TabBody, TabSection } from './TabSection';
import { useAdminLoad } from './useAdminLoad';

/** A log tail as plain text, scrolled to its newest line. */
function LogLines({ service, lines }: { service: string; lines: string[] }) {
  const ref = useRef<HTMLPreElement>(null);
  const text = lines.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again whenever the text changes
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [text]);
  return (
    <pre
      ref={ref}
      data-testid={`log-lines-${service}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable and scrollable by keyboard
      tabIndex={0}
      className="max-h-96 overflow-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-5 whitespace-pre-wrap break-all text-zinc-100"
    >
      {text}
    </pre>
  );
}

const TAILS: { service: SystemLogService; title: string }[] = [
  { service: 'backend', title: 'Backend (API) log' },
  { service: 'frontend', title: 'Frontend (web access) log' },
];

/** The server's own log files: which exist, and the last lines of each (as text, never HTML). */
export function SystemLogsTab({ notify }: AdminTabProps) {
  const { data, loading, reload } = useAdminLoad(useSystemLogs(), LOAD_FAILURE.systemLogs, notify);
  const services = Object.entries(data?.services ?? {});

  return (
    <TabSection title="System Logs" loading={loading} onRefresh={reload}>
      <TabBody loading={loading} hasData={data !== undefined} empty={false} emptyText="">
        <div className="space-y-6">
          <div className="grid gap-4 sm:grid-cols-2">
            {services.map(([name, status]) => (
              <Card key={name} className="p-4" data-testid={`log-service-${name}`}>
                <div className="flex items-center justify-between gap-2">
                  <p className="font-medium text-zinc-900 capitalize">{name}</p>
                  <Badge tone={status.status === 'available' ? 'success' : 'warning'} dot>
                    {status.status}
                  </Badge>
                </div>
                <p className="mt-2 text-sm text-zinc-500">
                  {formatBytes(status.file_size)} · last modified {formatDateTime(status.last_modified)}
                </p>
              </Card>
            ))}
          </div>
          {TAILS.map(({ service, title }) => {
            const lines = lastLines(data?.tails[service] ?? []);
            return (
              <section key={service} aria-label={title}>
                <h3 className="mb-2 text-sm font-semibold text-zinc-900">
                  {title}{' '}
                  <span className="font-normal text-zinc-500">
                    (last {Math.min(lines.length, SYSTEM_LOG_LINES_SHOWN)} lines)
                  </span>
                </h3>
                {lines.length === 0 ? (
                  <p className="rounded-lg bg-zinc-50 px-4 py-6 text-center text-sm text-zinc-500">
                    No log lines
                  </p>
                ) : (
                  <LogLines service={service} lines={lines} />
                )}
              </section>
            );
          })}
        </div>
      </TabBody>
    </TabSection>
  );
}
