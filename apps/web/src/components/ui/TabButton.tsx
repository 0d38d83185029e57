import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn';

/** One tab of a tablist, underlined in the accent colour while selected; padding and layout come from className. */
export function TabButton({
  selected,
  className,
  ...rest
}: { selected: boolean } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      className={cn(
        '-mb-px border-b-2 text-sm font-medium',
        selected
          ? 'border-accent-600 text-accent-700'
          : 'border-transparent text-zinc-500 hover:text-zinc-800',
        className,
      )}
      {...rest}
    />
  );
}
