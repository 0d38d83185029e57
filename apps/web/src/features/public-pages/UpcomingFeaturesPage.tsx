import { Clock } from 'lucide-react';
import { Badge, Card } from '../../components/ui';
import { PageShell } from './PageShell';

const ROADMAP = [
  {
    quarter: 'Q2 2025',
    items: [
      { title: 'One-click rollback', text: 'Return to any previous deployment in one click.', soon: true },
      { title: 'Custom domains', text: 'Bring your own domain with automatic SSL certificates.' },
      { title: 'Deploy on push', text: 'Redeploy automatically when you push to the deployed branch.' },
    ],
  },
  {
    quarter: 'Q3 2025',
    items: [
      { title: 'Team workspaces', text: 'Invite teammates and share deployments with roles.' },
      { title: 'More VM sizes', text: 'Larger machines for memory-hungry services.' },
      { title: 'Scheduled backups', text: 'Snapshots of named volumes on a schedule you choose.' },
    ],
  },
];

export function UpcomingFeaturesPage() {
  return (
    <PageShell
      title="Upcoming Features"
      subtitle="What we're building next. Dates are targets, not promises."
    >
      <ol className="relative space-y-10 border-l border-zinc-200 pl-8">
        {ROADMAP.map((quarter) => (
          <li key={quarter.quarter} className="relative">
            <span
              aria-hidden="true"
              className="absolute top-1 -left-[2.45rem] h-4 w-4 rounded-full border-4 border-white bg-accent-600 ring-1 ring-accent-200"
            />
            <h2 className="text-lg font-semibold text-zinc-950">{quarter.quarter}</h2>
            <div className="mt-4 space-y-3">
              {quarter.items.map((item) => (
                <Card key={item.title} className="p-5">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 className="font-medium text-zinc-900">{item.title}</h3>
                    {'soon' in item && (
                      <Badge tone="accent" icon={<Clock className="h-3 w-3" aria-hidden="true" />}>
                        Coming soon
                      </Badge>
                    )}
                  </div>
                  <p className="mt-1 text-sm text-zinc-600">{item.text}</p>
                </Card>
              ))}
            </div>
          </li>
        ))}
      </ol>
    </PageShell>
  );
}
