import type { AdminStats } from '@slipway/contract';
import { Activity, Boxes, type LucideIcon, Server, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../components/ui';

function StatCard({
  icon,
  label,
  value,
  detail,
}: {
  icon: ReactNode;
  label: string;
  value: ReactNode;
  detail: string;
}) {
  return (
    <Card className="flex items-start gap-4 p-5">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-accent-50 text-accent-600">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-zinc-500">{label}</p>
        <p className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums">{value}</p>
        <p className="mt-0.5 text-xs text-zinc-500">{detail}</p>
      </div>
    </Card>
  );
}

type Count = number | undefined;

/** Each card: its icon, label, main figure and the figure (with its word) under it. */
const STATS: {
  icon: LucideIcon;
  label: string;
  value: (stats: AdminStats | undefined) => Count;
  detail: [(stats: AdminStats | undefined) => Count, string];
}[] = [
  {
    icon: Users,
    label: 'Total Users',
    value: (stats) => stats?.users.total,
    detail: [(stats) => stats?.users.whitelisted, 'whitelisted'],
  },
  {
    icon: Server,
    label: 'Active VMs',
    value: (stats) => stats?.vms.running,
    detail: [(stats) => stats?.vms.total, 'total'],
  },
  {
    icon: Boxes,
    label: 'Workspaces',
    value: (stats) => stats?.workspaces.total,
    detail: [(stats) => stats?.workspaces.active, 'active'],
  },
  {
    icon: Activity,
    label: 'Recent Jobs',
    value: (stats) => stats?.jobs.recent_total,
    detail: [(stats) => stats?.jobs.recent_failed, 'failed'],
  },
];

/** Total Users, Active VMs, Workspaces and Recent Jobs; dashes until the stats arrive. */
export function StatCards({ stats }: { stats: AdminStats | undefined }) {
  const show = (value: Count) => (value === undefined ? '—' : value);
  return (
    <section aria-label="Platform statistics" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {STATS.map(({ icon: Icon, label, value, detail: [detail, word] }) => (
        <StatCard
          key={label}
          icon={<Icon className="h-5 w-5" />}
          label={label}
          value={show(value(stats))}
          detail={`${show(detail(stats))} ${word}`}
        />
      ))}
    </section>
  );
}
