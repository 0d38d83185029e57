import { cn } from './cn';

const SIZES = { sm: 'h-7 w-7 text-xs', md: 'h-10 w-10 text-sm', lg: 'h-16 w-16 text-xl' } as const;

/** A user's picture, or their initials when there is none. */
export function Avatar({
  src,
  name,
  size = 'md',
  className,
}: {
  src: string | null | undefined;
  name: string;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const classes = cn('shrink-0 rounded-full ring-2 ring-white', SIZES[size], className);
  if (src) return <img src={src} alt={`${name}'s avatar`} className={cn(classes, 'object-cover')} />;
  const initials =
    name
      .split(/[\s-_]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join('') || '?';
  return (
    <span
      role="img"
      aria-label={`${name}'s avatar`}
      className={cn(
        classes,
        'inline-flex items-center justify-center bg-accent-100 font-semibold text-accent-700',
      )}
    >
      {initials}
    </span>
  );
}
