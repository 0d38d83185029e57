import { type ReactNode, useId } from 'react';

/**
 * A box to tick, with its label and a line under it saying what ticking it does; the box is tinted while ticked.
 * `role="switch"` for a setting that turns something on (read as on/off), else a plain checkbox.
 */
export function CheckboxField({
  label,
  hint,
  checked,
  onChange,
  role,
}: {
  label: ReactNode;
  hint: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  role?: 'switch';
}) {
  const hintId = useId();
  return (
    <div className="rounded-lg border border-zinc-200 px-3 py-2.5 has-[:checked]:border-accent-300 has-[:checked]:bg-accent-50/40">
      <label className="flex cursor-pointer items-center gap-3 text-sm font-medium text-zinc-900">
        <input
          type="checkbox"
          role={role}
          aria-checked={role === 'switch' ? checked : undefined}
          className="h-4 w-4 shrink-0 rounded border-zinc-300 accent-accent-600"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={hintId}
        />
        {label}
      </label>
      <p id={hintId} className="mt-0.5 pl-7 text-xs text-zinc-600">
        {hint}
      </p>
    </div>
  );
}
