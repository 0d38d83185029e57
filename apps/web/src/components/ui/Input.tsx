import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { cn } from './cn';

export const fieldClasses = (invalid: boolean) =>
  cn(
    'block w-full rounded-lg border bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400',
    'transition-colors focus:outline-none focus:ring-2 disabled:bg-zinc-50 disabled:text-zinc-500',
    invalid
      ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
      : 'border-zinc-300 focus:border-accent-500 focus:ring-accent-100',
  );

interface FieldProps {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
}

/** What the control of a field carries so the label, hint and error belong to it. */
export interface FieldControlProps {
  id: string;
  required: boolean | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** Label, control, hint and error text wired together for assistive technology. */
export function FormField({
  label,
  error,
  hint,
  required,
  children,
}: FieldProps & { children: (control: FieldControlProps) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const control: FieldControlProps = {
    id,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
        {required && (
          <span className="ml-0.5 text-red-600" aria-hidden="true">
            *
          </span>
        )}
      </label>
      {children(control)}
      {hint && !error && (
        <p id={hintId} className="text-xs text-zinc-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

export function Input({
  label,
  error,
  hint,
  required,
  className,
  ...rest
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FormField label={label} error={error} hint={hint} required={required}>
      {(control) => <input {...control} className={cn(fieldClasses(Boolean(error)), className)} {...rest} />}
    </FormField>
  );
}

export function Textarea({
  label,
  error,
  hint,
  required,
  className,
  ...rest
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FormField label={label} error={error} hint={hint} required={required}>
      {(control) => (
        <textarea
          {...control}
          className={cn(fieldClasses(Boolean(error)), 'min-h-24', className)}
          {...rest}
        />
      )}
    </FormField>
  );
}
