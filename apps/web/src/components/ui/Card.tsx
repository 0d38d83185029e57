import type { LucideIcon } from 'lucide-react';
import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-xl border border-zinc-200 bg-white shadow-sm', className)} {...rest} />;
}

export function CardHeader({
  title,
  description,
  icon: Icon,
  action,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** Decorative: drawn beside the title, hidden from screen readers. */
  icon?: LucideIcon;
  action?: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3 border-b border-zinc-100 px-6 py-4">
      {Icon && (
        <div className="mt-0.5 text-accent-600">
          <Icon className="h-5 w-5" aria-hidden="true" />
        </div>
      )}
      <div className="min-w-0 flex-1">
        <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
        {description && <p className="mt-1 text-sm text-zinc-500">{description}</p>}
      </div>
      {action}
    </div>
  );
}

export function CardBody({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('px-6 py-5', className)} {...rest} />;
}
