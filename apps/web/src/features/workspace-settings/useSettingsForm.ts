import { type FormEvent, useState } from 'react';

/**
 * A settings card's form: what is typed (`Form`), what is wrong with it (`Problems`, checked here before the
 * server is asked), and a Save that sends the request and shows what the server kept. A refusal from the server
 * stays on the mutation's error for the card to show in the server's words.
 */
export function useSettingsForm<Saved, Form, Problems extends object, Request>(options: {
  saved: Saved;
  toForm: (saved: Saved) => Form;
  toRequest: (form: Form) => { settings: Request } | { problems: Problems };
  save: { mutateAsync: (request: Request) => Promise<Saved>; reset: () => void };
}) {
  const { toForm, toRequest, save } = options;
  const [form, setForm] = useState<Form>(() => toForm(options.saved));
  const [problems, setProblems] = useState<Partial<Problems>>({});
  const [justSaved, setJustSaved] = useState(false);
  const change = (next: Partial<Form>) => {
    setForm({ ...form, ...next });
    setJustSaved(false);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const request = toRequest(form);
    if ('problems' in request) {
      setProblems(request.problems);
      save.reset();
      return;
    }
    setProblems({});
    try {
      setForm(toForm(await save.mutateAsync(request.settings)));
      setJustSaved(true);
    } catch {
      // The card shows the mutation's error: the server's sentence.
    }
  }

  return { form, problems, justSaved, change, submit };
}
