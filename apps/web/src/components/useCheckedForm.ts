import { type ChangeEvent, type FormEvent, useState } from 'react';

/** The fields of a form that hold any text as typed (numbers included, until they are sent). */
export type TextField<Form> = { [Name in keyof Form]: string extends Form[Name] ? Name : never }[keyof Form];

/** What a form's check makes of it: what to fix, by field, or how to send it (resolving to the form after). */
export type Checked<Form, Problems> = { problems: Problems } | { send: () => Promise<Form> };

/**
 * A form checked here before the server is asked (in the contract's words, field by field), then sent. `mutation`
 * is the request's: a refusal stays on its error for the caller to show in the server's words, and is dropped once
 * the form shows problems of its own instead. `justSent` says the last sending went through and nothing was typed
 * since; `field(name)` is what a text field needs: its value, its problem, its onChange.
 */
export function useCheckedForm<Form, Problems extends Partial<Record<TextField<Form>, string>>>(
  initial: () => Form,
  mutation: { reset: () => void },
) {
  const [form, setForm] = useState<Form>(initial);
  const [problems, setProblems] = useState<Partial<Problems>>({});
  const [justSent, setJustSent] = useState(false);
  const change = (next: Partial<Form>) => {
    setForm({ ...form, ...next });
    setJustSent(false);
  };

  const field = <Name extends TextField<Form>>(name: Name) => ({
    value: form[name],
    error: problems[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      // A text field's value is the text typed (TextField): the one thing TypeScript cannot follow here.
      change({ [name]: event.target.value } as Partial<Form>),
  });

  async function submit(event: FormEvent, check: (form: Form) => Checked<Form, Problems>) {
    event.preventDefault();
    const checked = check(form);
    if ('problems' in checked) {
      setProblems(checked.problems);
      mutation.reset();
      return;
    }
    setProblems({});
    try {
      setForm(await checked.send());
      setJustSent(true);
    } catch {
      // The caller shows the mutation's error: the server's sentence.
    }
  }

  return { form, change, field, submit, justSent };
}
