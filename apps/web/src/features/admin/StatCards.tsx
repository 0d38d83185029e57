import type { AdminStats } from '@slipway/contract';
import { Activity, Boxes, Server, Users } from 'lucide-react';
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

/** Total Users, Active VMs, Workspaces and Recent Jobs; dashes until the stats arrive. */
export function StatCards({ stats }: { stats: AdminStats | undefined }) {
  const show = (value: number | undefined) => (value === undefined ? '—' : value);
  return (
    <section aria-label="Platform statistics" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard
        icon={<Users className="h-5 w-5" />}
        label="Total Users"
        value={show(stats?.users.total)}
        detail={`${show(stats?.users.whitelisted)} whitelisted`}
      />
      <StatCard
        icon={<Server className="h-5 w-5" />}
        label="Active VMs"
        value={show(stats?.vms.running)}
        detail={`${show(stats?.vms.total)} total`}
      />
      <StatCard
        icon={<Boxes className="h-5 w-5" />}
        label="Workspaces"
        value={show(stats?.workspaces.total)}
        detail={`${show(stats?.workspaces.active)} active`}
      />
      <StatCard
        icon={<Activity className="h-5 w-5" />}
        label="Recent Jobs"
        value={show(stats?.jobs.recent_total)}
        detail={`${show(stats?.jobs.recent_failed)} failed`}
      />
    </section>
  );
}
