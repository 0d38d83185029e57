import { ChevronDown } from 'lucide-react';
import type { SelectHTMLAttributes } from 'react';
import { cn } from './cn';
import { FormField, fieldClasses } from './Input';

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: readonly SelectOption[];
  /** Shown as an empty first option. */
  placeholder?: string;
  error?: string | undefined;
  hint?: string;
}

export function Select({
  label,
  options,
  placeholder,
  error,
  hint,
  required,
  className,
  ...rest
}: SelectProps) {
  return (
    <FormField label={label} error={error} hint={hint} required={required}>
      {(control) => (
        <div className="relative">
          <select
            {...control}
            className={cn(fieldClasses(Boolean(error)), 'appearance-none pr-9', className)}
            {...rest}
          >
            {placeholder !== undefined && <option value="">{placeholder}</option>}
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <ChevronDown
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 right-3 h-4 w-4 -translate-y-1/2 text-zinc-400"
          />
        </div>
      )}
    </FormField>
  );
}
