import { cn } from './ui';

/**
 * One line of a details list (<dl>): the label on the left, the value on the right (right-aligned
 * unless `alignEnd` is false).
 */
export function DetailRow({
  label,
  value,
  alignEnd = true,
}: {
  label: string;
  value: string;
  alignEnd?: boolean;
}) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-zinc-500">{label}</dt>
      <dd className={cn(alignEnd && 'text-right', 'font-medium break-all text-zinc-900')}>{value}</dd>
    </div>
  );
}
