import type { ContainerHealth, SystemInfo, VmHealth } from '@slipway/contract';
import { Box } from 'lucide-react';
import type { ReactNode } from 'react';
import { DataTable } from '../../components/DataTable';
import { formatBytes, formatPercent } from '../../lib/units';

/** The system-health container itself is not one of the user's services. */
export const SYSTEM_CONTAINER_NAME = 'system';

export function visibleContainers(
  containers: Record<string, ContainerHealth>,
): Array<[string, ContainerHealth]> {
  return Object.entries(containers).filter(
    ([key, c]) => key !== SYSTEM_CONTAINER_NAME && c.name !== SYSTEM_CONTAINER_NAME,
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2">
      <p className="text-xs text-zinc-500">{label}</p>
      <p className="text-base font-semibold text-zinc-900">{value}</p>
      {hint && <p className="text-xs break-all text-zinc-500">{hint}</p>}
    </div>
  );
}

/** A titled section of small figures, four to a row. */
function StatsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
      <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">{children}</div>
    </section>
  );
}

export function SystemInfoSection({ info }: { info: SystemInfo }) {
  return (
    <StatsSection title="System information">
      <Stat
        label="CPU cores"
        value={String(info.cpu_cores)}
        hint={info.cpu_frequency_mhz ? `${info.cpu_frequency_mhz} MHz` : undefined}
      />
      <Stat label="Memory total" value={formatBytes(info.memory_total)} />
      <Stat
        label="Network interfaces"
        value={String(info.network_interfaces?.length ?? 0)}
        hint={info.network_interfaces?.map((n) => n.name).join(', ')}
      />
      <Stat label="Cloud provider" value={info.cloud_provider} hint={info.hostname} />
    </StatsSection>
  );
}

export function VmHealthSection({ vm }: { vm: VmHealth }) {
  return (
    <StatsSection title="VM health">
      <Stat label="CPU usage" value={formatPercent(vm.cpu_usage_percent)} />
      <Stat
        label="Memory"
        value={formatPercent(vm.memory_usage_percent)}
        hint={`${formatBytes(vm.memory_used)} of ${formatBytes(vm.memory_total)}`}
      />
      <Stat label="Network received" value={formatBytes(vm.network_rx_bytes)} />
      <Stat label="Network sent" value={formatBytes(vm.network_tx_bytes)} />
    </StatsSection>
  );
}

export function ContainersSection({ containers }: { containers: Record<string, ContainerHealth> }) {
  const list = visibleContainers(containers);
  return (
    <section aria-label="Containers">
      <h3 className="text-sm font-semibold text-zinc-900">Containers</h3>
      {list.length === 0 ? (
        <div className="mt-2 flex flex-col items-center rounded-lg border border-dashed border-zinc-300 py-6 text-center">
          <Box className="h-6 w-6 text-zinc-400" aria-hidden="true" />
          <p className="mt-2 text-sm font-medium text-zinc-700">No Containers Found</p>
        </div>
      ) : (
        <DataTable
          look="compact"
          className="mt-2"
          rows={list}
          rowKey={([key]) => key}
          columns={[
            { header: 'Name', className: 'font-medium text-zinc-900', cell: ([, c]) => c.name },
            {
              header: 'Image',
              className: 'max-w-48 truncate font-mono text-xs text-zinc-600',
              cell: ([, c]) => c.image,
            },
            { header: 'CPU', cell: ([, c]) => formatPercent(c.cpu_percent) },
            {
              header: 'Memory',
              cell: ([, c]) => (
                <>
                  {formatBytes(c.memory_usage)}
                  {c.memory_limit > 0 && (
                    <span className="text-zinc-500"> / {formatBytes(c.memory_limit)}</span>
                  )}
                </>
              ),
            },
            {
              header: 'Network rx / tx',
              cell: ([, c]) => `${formatBytes(c.network_rx)} / ${formatBytes(c.network_tx)}`,
            },
          ]}
        />
      )}
    </section>
  );
}
