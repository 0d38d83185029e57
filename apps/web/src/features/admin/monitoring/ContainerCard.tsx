import { Box } from 'lucide-react';
import { Card, cn } from '../../../components/ui';
import { formatBytes, formatPercent, memoryTone } from '../../../lib/units';
import type { ContainerMetrics } from './containerMetrics';

const BAR = { red: 'bg-red-500', yellow: 'bg-amber-400', green: 'bg-emerald-500' } as const;

function Metric({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="font-medium text-zinc-900 tabular-nums">{value}</dd>
    </div>
  );
}

function Owner({ label, value, mono = false }: { label: string; value: string; mono?: boolean }) {
  return (
    <>
      <dt className="text-zinc-500">{label}</dt>
      <dd className={cn('truncate text-zinc-900', mono && 'font-mono')} title={value}>
        {value}
      </dd>
    </>
  );
}

/** One container: whose it is (workspace, service, image, owner), its memory (with its bar), CPU and network, as read from the monitoring proxy. */
export function ContainerCard({ container }: { container: ContainerMetrics }) {
  const { memory, cpu, network } = container;
  const tone = memoryTone(memory.usagePercent);
  return (
    <Card className="min-w-0 p-5" data-testid="container-card">
      <div className="flex items-start gap-3">
        <Box className="mt-0.5 h-5 w-5 shrink-0 text-accent-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <p className="truncate font-semibold text-zinc-900" title={container.name}>
            {container.name}
          </p>
          <p className="truncate font-mono text-xs text-zinc-500" title={container.id}>
            {container.shortId}
          </p>
        </div>
        <span className="text-xs text-zinc-500">{new Date(container.timestamp).toLocaleTimeString()}</span>
      </div>

      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
        <Owner label="Workspace" value={container.workspace ?? 'Not a workspace'} />
        <Owner label="Service" value={container.service ?? '—'} />
        <Owner label="Image" value={container.image || 'unknown image'} mono />
        <Owner label="Owner" value={container.owner ? `@${container.owner}` : '—'} />
      </dl>

      <div className="mt-4">
        <div className="flex justify-between text-xs text-zinc-600">
          <span>Memory</span>
          <span className="tabular-nums">
            {formatBytes(memory.workingSet)} / {memory.limit > 0 ? formatBytes(memory.limit) : 'unlimited'}
            {memory.limit > 0 && ` (${formatPercent(memory.usagePercent)})`}
          </span>
        </div>
        <div className="mt-1.5 h-2 overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
          <div
            data-tone={tone}
            className={cn('h-full rounded-full transition-all', BAR[tone])}
            style={{ width: `${Math.min(100, memory.usagePercent)}%` }}
          />
        </div>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        <Metric label="Working set" value={formatBytes(memory.workingSet)} />
        <Metric label="Limit" value={memory.limit > 0 ? formatBytes(memory.limit) : 'Unlimited'} />
        <Metric label="CPU" value={formatPercent(cpu.usagePercent)} />
        <Metric label="RSS" value={formatBytes(memory.rss)} />
        <Metric label="Cache" value={formatBytes(memory.cache)} />
        <Metric
          label="Network RX / TX"
          value={`${formatBytes(network.rxBytes)} / ${formatBytes(network.txBytes)}`}
        />
      </dl>
    </Card>
  );
}
