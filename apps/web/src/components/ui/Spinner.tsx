import { cn } from './cn';

const SIZES = { sm: 'h-4 w-4 border-2', md: 'h-6 w-6 border-2', lg: 'h-10 w-10 border-[3px]' } as const;

export function Spinner({ size = 'md', className }: { size?: keyof typeof SIZES; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-block animate-spin rounded-full border-current border-t-transparent opacity-80',
        SIZES[size],
        className,
      )}
    />
  );
}

/** A centred full-area loading state; the text is what screen readers and tests see. */
export function LoadingView({ title = 'Loading...', subtitle }: { title?: string; subtitle?: string }) {
  return (
    <div
      role="status"
      className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center"
    >
      <Spinner size="lg" className="text-accent-600" />
      <p className="text-lg font-medium text-zinc-900">{title}</p>
      {subtitle && <p className="text-sm text-zinc-500">{subtitle}</p>}
    </div>
  );
}
