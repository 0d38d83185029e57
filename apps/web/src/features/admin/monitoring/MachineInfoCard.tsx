import type { CadvisorMachineInfo } from '@slipway/contract';
import { Cpu } from 'lucide-react';
import { Card } from '../../../components/ui';
import { formatDateTime } from '../../../lib/dates';
import { formatBytes } from '../../../lib/units';

/** CPU cores, memory, hostname and boot time of the host (read once). */
export function MachineInfoCard({ machine }: { machine: CadvisorMachineInfo }) {
  const rows = [
    { label: 'CPU cores', value: String(machine.num_cores) },
    { label: 'Memory', value: formatBytes(machine.memory_capacity) },
    { label: 'Hostname', value: machine.hostname ?? machine.system_uuid ?? '—' },
    { label: 'Boot time', value: machine.boot_time ? formatDateTime(machine.boot_time) : '—' },
  ];
  return (
    <Card className="p-5" data-testid="machine-info">
      <div className="mb-4 flex items-center gap-2">
        <Cpu className="h-5 w-5 text-accent-600" aria-hidden="true" />
        <h3 className="font-semibold text-zinc-900">System Information</h3>
      </div>
      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
        {rows.map((row) => (
          <div key={row.label}>
            <dt className="text-xs text-zinc-500">{row.label}</dt>
            <dd className="mt-0.5 font-medium break-all text-zinc-900">{row.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
