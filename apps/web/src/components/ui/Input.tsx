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

/**
 * A field around a text control: FormField takes the label, hint, error and required mark, the control `draw`s
 * gets their wiring, the field's classes (and `extraClass`) and every other attribute given.
 */
function withField<Attributes extends { className?: string | undefined }>(
  props: FieldProps & Attributes,
  draw: (
    control: FieldControlProps & { className: string },
    attributes: Omit<FieldProps & Attributes, keyof FieldProps | 'className'>,
  ) => ReactNode,
  extraClass?: string,
) {
  const { label, error, hint, required, className, ...attributes } = props;
  return (
    <FormField label={label} error={error} hint={hint} required={required}>
      {(control) =>
        draw({ ...control, className: cn(fieldClasses(Boolean(error)), extraClass, className) }, attributes)
      }
    </FormField>
  );
}

export function Input(props: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return withField(props, (control, attributes) => <input {...control} {...attributes} />);
}

/** A number field whose text stays as typed until Save (a half-typed number is not replaced), the number keypad on a phone. */
export function NumberInput(
  props: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode'>,
) {
  return <Input type="number" inputMode="numeric" {...props} />;
}

export function Textarea(props: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return withField(props, (control, attributes) => <textarea {...control} {...attributes} />, 'min-h-24');
}
