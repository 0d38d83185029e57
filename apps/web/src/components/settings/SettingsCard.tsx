import { type LucideIcon, Save } from 'lucide-react';
import type { FormEvent, ReactNode } from 'react';
import { Alert, Button, Card, CardBody, CardHeader } from '../ui';

/** A card of settings: its title with what it is for, and its content (a SettingsForm, or what loads one). */
export function SettingsCard({
  title,
  icon,
  description,
  children,
}: {
  title: string;
  icon?: LucideIcon;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} icon={icon} description={description} />
      <CardBody>{children}</CardBody>
    </Card>
  );
}

/** Where a settings form stands: what its button sends, and what the server answered last. */
export interface SettingsFormState {
  submit: (event: FormEvent) => void | Promise<void>;
  /** The request is on its way. */
  busy: boolean;
  /** The server's refusal of the last request, in its words. */
  error: Error | null;
  /** The server kept what was sent, and nothing was typed since. */
  justSaved: boolean;
  /** There is something the button can send (a change, or a place to send it to). */
  canSubmit: boolean;
}

/**
 * A settings form: its fields (`children`, each showing what the check before sending found wrong with it), then
 * the server's refusal or `savedText` once it kept what was sent, and the button at the end.
 */
export function SettingsForm({
  state,
  submitLabel,
  submitIcon = Save,
  savedText,
  children,
}: {
  state: SettingsFormState;
  submitLabel: string;
  submitIcon?: LucideIcon;
  savedText?: string;
  children: ReactNode;
}) {
  return (
    <form className="space-y-5" onSubmit={(event) => void state.submit(event)} noValidate>
      {children}
      {state.error && <Alert tone="error">{state.error.message}</Alert>}
      {savedText && state.justSaved && <Alert tone="success">{savedText}</Alert>}
      <div className="flex justify-end">
        <Button type="submit" icon={submitIcon} loading={state.busy} disabled={!state.canSubmit}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
