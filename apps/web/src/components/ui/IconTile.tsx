import type { LucideIcon } from 'lucide-react';
import { cn } from './cn';

const SIZES = {
  md: { tile: 'h-10 w-10', icon: 'h-5 w-5' },
  lg: { tile: 'h-12 w-12', icon: 'h-6 w-6' },
} as const;

/** An icon centred on a square or round tile; `className` gives its shape and colours. Decorative: hidden from screen readers. */
export function IconTile({
  icon: Icon,
  size = 'md',
  className,
}: {
  icon: LucideIcon;
  size?: keyof typeof SIZES;
  className: string;
}) {
  return (
    <span className={cn('flex shrink-0 items-center justify-center', SIZES[size].tile, className)}>
      <Icon className={SIZES[size].icon} aria-hidden="true" />
    </span>
  );
}
