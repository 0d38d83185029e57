import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  icon: LucideIcon;
  title: ReactNode;
  /** A line under the title (e.g. the workspace's name). */
  subtitle?: ReactNode;
  /** Shown right after the title, e.g. a picker of what the page shows. */
  beside?: ReactNode;
  /** Shown at the other end of the line: the page's buttons or picker. */
  actions?: ReactNode;
  className?: string;
}

/** The title line of a signed-in page: the page's h1 with its icon, and what sits beside it. */
export function PageHeader({ icon: Icon, title, subtitle, beside, actions, className }: PageHeaderProps) {
  let start: ReactNode = (
    <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight text-zinc-950">
      <Icon className="h-6 w-6 text-accent-600" aria-hidden="true" />
      {title}
    </h1>
  );
  if (beside) {
    start = (
      <div className="flex flex-wrap items-center gap-3">
        {start}
        {beside}
      </div>
    );
  }
  if (subtitle) {
    start = (
      <div>
        {start}
        <p className="mt-1 text-sm text-zinc-600">{subtitle}</p>
      </div>
    );
  }
  return (
    <div className={`flex flex-wrap items-center justify-between gap-4 ${className ?? ''}`.trim()}>
      {start}
      {actions}
    </div>
  );
}
