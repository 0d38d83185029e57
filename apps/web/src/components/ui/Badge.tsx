import type { ReactNode } from 'react';
import { cn } from './cn';

/** `caution` is orange: more than a `warning` (amber), less than `danger` (red). */
export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning' | 'caution' | 'danger' | 'info';

const TONES: Record<BadgeTone, string> = {
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-200',
  accent: 'bg-accent-50 text-accent-700 ring-accent-200',
  success: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  warning: 'bg-amber-50 text-amber-800 ring-amber-200',
  caution: 'bg-orange-50 text-orange-800 ring-orange-200',
  danger: 'bg-red-50 text-red-700 ring-red-200',
  info: 'bg-sky-50 text-sky-700 ring-sky-200',
};
const DOTS: Record<BadgeTone, string> = {
  neutral: 'bg-zinc-400',
  accent: 'bg-accent-500',
  success: 'bg-emerald-500',
  warning: 'bg-amber-500',
  caution: 'bg-orange-500',
  danger: 'bg-red-500',
  info: 'bg-sky-500',
};

export function Badge({
  tone = 'neutral',
  dot = false,
  icon,
  className,
  children,
}: {
  tone?: BadgeTone;
  dot?: boolean;
  icon?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        TONES[tone],
        className,
      )}
    >
      {dot && <span aria-hidden="true" className={cn('h-1.5 w-1.5 rounded-full', DOTS[tone])} />}
      {icon}
      {children}
    </span>
  );
}
