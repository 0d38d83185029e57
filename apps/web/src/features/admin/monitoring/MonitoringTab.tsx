import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Alert, Button, Card, Select, Spinner } from '../../../components/ui';
import { countOf, NOUNS } from '../../../lib/plural';
import type { AdminTabProps } from '../adminTabTypes';
import { ContainerGrid } from './ContainerGrid';
import { MachineInfoCard } from './MachineInfoCard';
import { MonitoringErrorPanel } from './MonitoringErrorPanel';
import { DEFAULT_REFRESH_MS, REFRESH_INTERVALS, useContainerMonitoring } from './useContainerMonitoring';

const INTERVAL_OPTIONS = REFRESH_INTERVALS.map((ms) => ({
  value: String(ms),
  label: ms === 0 ? 'No auto-refresh' : countOf(ms / 1000, NOUNS.second),
}));

/** Above the cards, when the engine did not answer about some containers (their cards are missing). */
const unansweredTitle = (count: number) =>
  `The Docker Engine does not answer about ${countOf(count, NOUNS.container)}; ` +
  `the others are shown without ${count === 1 ? 'it' : 'them'}`;

/** System Monitoring: the host once, the containers every interval, from the admin cAdvisor proxy. */
export function MonitoringTab({ active }: AdminTabProps) {
  const [intervalMs, setIntervalMs] = useState<number>(DEFAULT_REFRESH_MS);
  const { machine, containers, unanswered, error, loading, refresh } = useContainerMonitoring(
    intervalMs,
    active,
  );

  return (
    <div className="space-y-6">
      <Card className="flex flex-wrap items-end gap-4 px-6 py-4">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-zinc-900">System Monitoring</h2>
          <p className="mt-0.5 text-sm text-zinc-500">
            Live memory, CPU and network of every container on the host
          </p>
        </div>
        <div className="w-48">
          <Select
            label="Refresh interval"
            options={INTERVAL_OPTIONS}
            value={String(intervalMs)}
            onChange={(event) => setIntervalMs(Number(event.target.value))}
          />
        </div>
        <Button
          variant="secondary"
          onClick={refresh}
          disabled={loading}
          icon={RefreshCw}
          iconClassName={loading ? 'h-4 w-4 animate-spin' : 'h-4 w-4'}
        >
          Refresh Now
        </Button>
      </Card>

      {error && <MonitoringErrorPanel message={error} onRetry={refresh} />}

      {!error && !machine && loading && (
        <div role="status" className="flex items-center gap-3 py-8 text-sm text-zinc-500">
          <Spinner size="sm" /> Loading monitoring data...
        </div>
      )}

      {machine && <MachineInfoCard machine={machine} />}

      {!error && unanswered.length > 0 && (
        <Alert tone="warning" title={unansweredTitle(unanswered.length)}>
          <ul className="list-disc space-y-1 pl-5">
            {unanswered.map((container) => (
              <li key={container.id} className="break-words">
                {container.name}: {container.sentence}
              </li>
            ))}
          </ul>
        </Alert>
      )}

      {containers && containers.length === 0 && (
        <p className="rounded-lg border border-dashed border-zinc-300 py-10 text-center text-sm text-zinc-500">
          No container data available
        </p>
      )}
      {containers && containers.length > 0 && <ContainerGrid containers={containers} />}
    </div>
  );
}
