import type { LucideIcon } from 'lucide-react';
import { Button } from './ui';

/**
 * A small button acting on one row of a list (Remove, Restore, Redeploy…): screen readers hear what it acts on
 * (`Remove shop.example.com`), and it turns while its request for this row runs.
 */
export function RowButton({
  label,
  of,
  icon,
  busy,
  disabled,
  primary = false,
  onClick,
}: {
  label: string;
  /** What it acts on, in words: the end of its accessible name. */
  of: string;
  icon: LucideIcon;
  busy: boolean;
  disabled?: boolean;
  /** The one thing to do next (Approve), instead of one of several. */
  primary?: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      size="sm"
      variant={primary ? 'primary' : 'secondary'}
      icon={icon}
      aria-label={`${label} ${of}`}
      loading={busy}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}
