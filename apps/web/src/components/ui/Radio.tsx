import type { ReactNode } from 'react';

/** One choice of a group of radio buttons (`name`), its label beside it. */
export function Radio({
  name,
  checked,
  onChange,
  label,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  label: ReactNode;
}) {
  return (
    <label className="flex items-center gap-2 text-zinc-800">
      <input type="radio" name={name} className="accent-accent-600" checked={checked} onChange={onChange} />
      {label}
    </label>
  );
}
