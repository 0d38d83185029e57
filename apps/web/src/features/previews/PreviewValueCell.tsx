import type { PreviewVariable } from '@slipway/contract';
import { type FormEvent, useState } from 'react';
import { Badge, Button } from '../../components/ui';
import { fieldClasses } from '../../components/ui/Input';
import { previewValueText } from './previewVariableView';

/** What previews get for the variable, and a value of their own: set (never shown again, as any secret) or cleared. */
export function PreviewValueCell({
  variable,
  busy,
  onSave,
}: {
  variable: PreviewVariable;
  busy: boolean;
  /** The value for previews, or null to remove it; rejects when the server refused it. */
  onSave: (value: string | null) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const { text, tone } = previewValueText(variable);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (editing === null) return;
    try {
      await onSave(editing);
      setEditing(null);
    } catch {
      // The card shows the server's sentence; the typed value stays for another try.
    }
  }

  if (editing !== null) {
    return (
      <form className="flex flex-wrap items-center gap-2" onSubmit={(event) => void submit(event)}>
        <input
          aria-label={`Value of ${variable.key} for previews`}
          autoFocus
          autoComplete="off"
          spellCheck={false}
          value={editing}
          onChange={(event) => setEditing(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setEditing(null);
          }}
          className={`${fieldClasses(false)} max-w-64 font-mono text-xs`}
        />
        <Button type="submit" size="sm" loading={busy}>
          Save
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(null)}>
          Cancel
        </Button>
      </form>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Badge tone={tone} dot>
        {text}
      </Badge>
      <Button
        size="sm"
        variant="ghost"
        aria-label={`${variable.has_preview_value ? 'Change' : 'Set'} the value of ${variable.key} for previews`}
        onClick={() => setEditing('')}
      >
        {variable.has_preview_value ? 'Change' : 'Set own value'}
      </Button>
      {variable.has_preview_value && (
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Remove the value of ${variable.key} for previews`}
          loading={busy}
          onClick={() => void onSave(null).catch(() => undefined)}
        >
          Remove value
        </Button>
      )}
    </div>
  );
}
