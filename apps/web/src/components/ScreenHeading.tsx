import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './ui/cn';

const TONES = {
  accent: 'bg-accent-50 text-accent-600',
  success: 'bg-emerald-50 text-emerald-600',
  danger: 'bg-red-50 text-red-600',
  dark: 'bg-zinc-900 text-white',
} as const;

const SIZES = {
  md: { tile: 'h-12 w-12 rounded-xl', icon: 'h-6 w-6', gap: 'mt-5' },
  lg: { tile: 'h-14 w-14 rounded-2xl', icon: 'h-7 w-7', gap: 'mt-6' },
  xl: { tile: 'h-16 w-16 rounded-full', icon: 'h-9 w-9', gap: 'mt-5' },
} as const;

const titleClasses = 'text-3xl font-semibold tracking-tight text-zinc-950';

/**
 * The big heading of a step or outcome screen (onboarding, deploy flow): the icon on its tile, the h1,
 * and `children` under it. Centred, or (`centered` false) at the start of a line that ends in `actions`.
 */
export function ScreenHeading({
  icon: Icon,
  title,
  tone = 'accent',
  size = 'md',
  centered = false,
  actions,
  children,
}: {
  icon: LucideIcon;
  title: ReactNode;
  tone?: keyof typeof TONES;
  size?: keyof typeof SIZES;
  centered?: boolean;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const { tile, icon, gap } = SIZES[size];
  const badge = (
    <span
      className={cn('flex items-center justify-center', centered ? 'mx-auto' : 'shrink-0', tile, TONES[tone])}
    >
      <Icon className={icon} aria-hidden="true" />
    </span>
  );
  if (centered) {
    return (
      <div className="text-center">
        {badge}
        <h1 className={cn(gap, titleClasses)}>{title}</h1>
        {children}
      </div>
    );
  }
  return (
    <div className="flex items-start gap-4">
      {badge}
      <div>
        <h1 className={titleClasses}>{title}</h1>
        {children}
      </div>
      {actions}
    </div>
  );
}
