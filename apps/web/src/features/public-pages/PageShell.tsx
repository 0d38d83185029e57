import type { ReactNode } from 'react';
import { cn } from '../../components/ui';

/** The frame of a public content page: a header band and a readable column. */
export function PageShell({
  title,
  subtitle,
  meta,
  wide = false,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  meta?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div>
      <div className="border-b border-zinc-200 bg-zinc-50">
        <div className={cn('mx-auto px-4 py-12 sm:px-6 sm:py-16', wide ? 'max-w-6xl' : 'max-w-3xl')}>
          <h1 className="text-3xl font-semibold tracking-tight text-zinc-950 sm:text-4xl">{title}</h1>
          {subtitle && <p className="mt-3 text-lg text-zinc-600">{subtitle}</p>}
          {meta && <p className="mt-3 text-sm text-zinc-500">{meta}</p>}
        </div>
      </div>
      <div className={cn('mx-auto px-4 py-12 sm:px-6', wide ? 'max-w-6xl' : 'max-w-3xl')}>{children}</div>
    </div>
  );
}

/** Long-form text (terms, privacy, docs) with consistent headings, lists and links. */
export function Prose({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'space-y-4 leading-relaxed text-zinc-700',
        '[&_h2]:mt-10 [&_h2]:scroll-mt-20 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-zinc-950',
        '[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-zinc-900',
        '[&_ul]:list-disc [&_ul]:space-y-1.5 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-1.5 [&_ol]:pl-6',
        '[&_a]:font-medium [&_a]:text-accent-700 [&_a]:underline-offset-2 hover:[&_a]:underline',
        '[&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em] [&_code]:text-zinc-800',
        className,
      )}
    >
      {children}
    </div>
  );
}
