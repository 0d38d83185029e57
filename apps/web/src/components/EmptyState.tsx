import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './ui/cn';

/**
 * What a list or screen shows when it has nothing: a dashed box with an optional icon, a title (an h2
 * when `heading`), a line under it, and `children` (actions) below.
 */
export function EmptyState({
  icon: Icon,
  title,
  heading = false,
  description,
  children,
  className,
}: {
  icon?: LucideIcon;
  title?: ReactNode;
  heading?: boolean;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const Title = heading ? 'h2' : 'p';
  return (
    <div
      className={cn(
        'flex flex-col items-center rounded-xl border border-dashed border-zinc-300 px-6 py-16 text-center',
        className,
      )}
    >
      {Icon && <Icon className="mb-3 h-8 w-8 text-zinc-400" aria-hidden="true" />}
      {title && (
        <Title className={cn('text-zinc-900', heading ? 'text-lg font-semibold' : 'font-medium')}>
          {title}
        </Title>
      )}
      {description && (
        <p className={cn('text-sm text-zinc-600', title ? 'mt-1' : undefined)}>{description}</p>
      )}
      {children}
    </div>
  );
}
