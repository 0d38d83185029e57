import type { FormEvent } from 'react';
import { type TextField, useCheckedForm } from '../useCheckedForm';
import type { SettingsFormState } from './SettingsCard';

/**
 * How one kind of settings becomes a form and back, defined beside its fields' rules (backupSettingsForm.ts,
 * previewSettingsForm.ts): the form for what is saved, the request for a form (or what to fix in it), whether a
 * form says what is saved already, and the bounds of its number fields.
 */
export interface SettingsFormRules<Saved, Form, Problems, Request> {
  toForm: (saved: Saved) => Form;
  toRequest: (form: Form) => { settings: Request } | { problems: Problems };
  same: (form: Form, saved: Saved) => boolean;
  /** The number fields' bounds: the contract's schema for each (a zod number knows its own). */
  bounds?: Partial<Record<TextField<Form>, NumberBounds>>;
}

/** The least and most a number may be, as a zod number schema states them. */
export interface NumberBounds {
  minValue: number | null;
  maxValue: number | null;
}

/**
 * A settings card's form: a checked form (useCheckedForm) whose Save sends the settings and shows what the server
 * kept. `state` is what SettingsForm needs; `numberField(name)` is `field(name)` with the contract's bounds.
 */
export function useSettingsForm<
  Saved,
  Form,
  Problems extends Partial<Record<TextField<Form>, string>>,
  Request,
>(
  rules: SettingsFormRules<Saved, Form, Problems, Request>,
  saved: Saved,
  save: {
    mutateAsync: (request: Request) => Promise<Saved>;
    reset: () => void;
    isPending: boolean;
    error: Error | null;
  },
) {
  const { form, change, field, submit, justSent } = useCheckedForm<Form, Problems>(
    () => rules.toForm(saved),
    save,
  );

  const numberField = (name: TextField<Form>) => {
    const bounds = rules.bounds?.[name];
    return { ...field(name), min: bounds?.minValue ?? undefined, max: bounds?.maxValue ?? undefined };
  };

  const state: SettingsFormState = {
    submit: (event: FormEvent) =>
      submit(event, (typed) => {
        const request = rules.toRequest(typed);
        if ('problems' in request) return request;
        return { send: async () => rules.toForm(await save.mutateAsync(request.settings)) };
      }),
    busy: save.isPending,
    error: save.error,
    justSaved: justSent,
    canSubmit: !rules.same(form, saved),
  };
  return { form, change, field, numberField, state };
}
