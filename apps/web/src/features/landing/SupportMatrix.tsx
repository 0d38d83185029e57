import { Check, Clock, X } from 'lucide-react';

const COLUMNS = [
  {
    title: 'Supported',
    icon: Check,
    iconClass: 'bg-emerald-50 text-emerald-600',
    items: [
      'Multi-stage Docker builds',
      'docker-compose with multiple containers',
      'Persistent storage through storage containers in compose',
      'Secrets through a key vault integration',
    ],
  },
  {
    title: 'Not supported',
    icon: X,
    iconClass: 'bg-zinc-100 text-zinc-500',
    items: ['Non-dockerized apps are unsupported', 'No SSH access to the VM'],
  },
  {
    title: 'Coming soon',
    icon: Clock,
    iconClass: 'bg-accent-50 text-accent-600',
    items: ['Rollback is coming soon', 'Custom domains'],
  },
];

/** What runs on Slipway today, stated plainly so nobody finds out after signing up. */
export function SupportMatrix() {
  return (
    <div className="mt-12 grid gap-px overflow-hidden rounded-xl border border-zinc-200 bg-zinc-200 md:grid-cols-3">
      {COLUMNS.map((column) => (
        <div key={column.title} className="bg-white p-6">
          <h3 className="text-sm font-semibold text-zinc-900">{column.title}</h3>
          <ul className="mt-4 space-y-3">
            {column.items.map((item) => (
              <li key={item} className="flex gap-3 text-sm text-zinc-700">
                <span
                  className={`flex h-5 w-5 shrink-0 items-center justify-center rounded-full ${column.iconClass}`}
                  aria-hidden="true"
                >
                  <column.icon className="h-3 w-3" />
                </span>
                {item}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
