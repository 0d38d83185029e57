import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge, type BadgeTone, cn } from './ui';

/** Where a thing stands, as a badge shows it: its label, its colour, and whether it moves on by itself. */
export interface Status {
  label: string;
  tone: BadgeTone;
  /** It changes without anyone acting (deploying, verifying, issuing…): the badge turns instead of a dot. */
  moving: boolean;
}

/** A status from a thing's state: its label and colour from the tables of its kind, and whether it moves now. */
export const statusOf =
  <State extends string>(labels: Record<State, string>, tones: Record<State, BadgeTone>) =>
  (state: State, moving: boolean): Status => ({ label: labels[state], tone: tones[state], moving });

const CAUSE_TONES = { plain: 'text-zinc-700', danger: 'text-red-700' } as const;
const WIDTHS = { xs: 'max-w-xs', sm: 'max-w-sm' } as const;

/**
 * A status badge (a dot while it stays, a turning icon while it moves), and under it why it is so (a failure's
 * cause) and any further lines (`children`). Given neither, it is the badge alone.
 */
export function StatusBadge({
  status,
  cause,
  causeTone = 'plain',
  width = 'xs',
  children,
}: {
  status: Status;
  cause?: string | null;
  causeTone?: keyof typeof CAUSE_TONES;
  /** How wide the lines under the badge may grow. */
  width?: keyof typeof WIDTHS;
  children?: ReactNode;
}) {
  const badge = (
    <Badge
      tone={status.tone}
      dot={!status.moving}
      icon={status.moving ? <Loader2 className="h-3 w-3 animate-spin" aria-hidden="true" /> : undefined}
    >
      {status.label}
    </Badge>
  );
  if (!cause && !children) return badge;
  return (
    <div className={cn('space-y-1', WIDTHS[width])}>
      {badge}
      {cause && <p className={cn('text-xs', CAUSE_TONES[causeTone])}>{cause}</p>}
      {children}
    </div>
  );
}
