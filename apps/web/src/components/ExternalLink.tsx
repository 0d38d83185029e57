import { ExternalLink as ExternalLinkIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './ui/cn';

/** A link out of Slipway (a preview, a pull request, a domain): it opens in a new tab, marked so after its text. */
export function ExternalLink({
  href,
  className,
  children,
}: {
  href: string;
  /** Its colour, weight and wrapping. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className={cn('inline-flex items-center gap-1 hover:underline', className)}
    >
      {children}
      <ExternalLinkIcon className="h-3 w-3 shrink-0" aria-hidden="true" />
    </a>
  );
}
