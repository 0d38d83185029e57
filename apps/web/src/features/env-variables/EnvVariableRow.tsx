import { Check, Eye, EyeOff, Pencil, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useState } from 'react';
import { cn } from '../../components/ui';
import type { EnvRow } from './envRows';

const field =
  'w-full rounded-lg border px-3 py-2 font-mono text-sm shadow-sm focus:outline-none focus:ring-2 focus:ring-accent-100';

interface EnvVariableRowProps {
  row: EnvRow;
  index: number;
  disabled: boolean;
  keyRef: (element: HTMLInputElement | null) => void;
  onChange: (patch: Partial<Pick<EnvRow, 'key' | 'value'>>) => void;
  onValueKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  onEdit: () => void;
  onSave: () => void;
  onDelete: () => void;
}

/** A key/value pair: editable inputs, or a locked pair with Edit and Delete. */
export function EnvVariableRow({ row, index, disabled, ...handlers }: EnvVariableRowProps) {
  const [revealed, setRevealed] = useState(false);
  const locked = row.isReadOnly;
  const iconButton = 'rounded-md p-2 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 disabled:opacity-40';
  return (
    <div className="flex items-center gap-2" data-testid="env-row" data-locked={locked ? 'true' : 'false'}>
      <input
        ref={handlers.keyRef}
        value={row.key}
        readOnly={locked}
        disabled={disabled}
        onChange={(event) => handlers.onChange({ key: event.target.value })}
        placeholder="KEY"
        aria-label={`Variable ${index + 1} key`}
        spellCheck={false}
        autoComplete="off"
        className={cn(
          field,
          'flex-[2]',
          locked ? 'border-zinc-200 bg-zinc-50 text-zinc-700' : 'border-zinc-300',
        )}
      />
      <div className="relative flex-[3]">
        <input
          value={row.value}
          readOnly={locked}
          disabled={disabled}
          type={locked && !revealed ? 'password' : 'text'}
          onChange={(event) => handlers.onChange({ value: event.target.value })}
          onKeyDown={handlers.onValueKeyDown}
          placeholder="value"
          aria-label={`Variable ${index + 1} value`}
          spellCheck={false}
          autoComplete="off"
          className={cn(field, locked ? 'border-zinc-200 bg-zinc-50 pr-9 text-zinc-700' : 'border-zinc-300')}
        />
        {locked && (
          <button
            type="button"
            onClick={() => setRevealed((value) => !value)}
            aria-label={revealed ? 'Hide value' : 'Show value'}
            className="absolute top-1/2 right-2 -translate-y-1/2 text-zinc-400 hover:text-zinc-700"
          >
            {revealed ? <EyeOff className="h-4 w-4" /> : <Eye className="h-4 w-4" />}
          </button>
        )}
      </div>
      {/* Edit and Save are separate buttons (keyed), as focus leaves the one pressed. */}
      <button
        key={locked ? 'edit' : 'save'}
        type="button"
        className={iconButton}
        onClick={locked ? handlers.onEdit : handlers.onSave}
        disabled={disabled}
        aria-label={locked ? 'Edit' : 'Save'}
      >
        {locked ? <Pencil className="h-4 w-4" /> : <Check className="h-4 w-4" />}
      </button>
      <button
        type="button"
        className={cn(iconButton, 'hover:bg-red-50 hover:text-red-600')}
        onClick={handlers.onDelete}
        disabled={disabled}
        aria-label="Delete"
      >
        <Trash2 className="h-4 w-4" />
      </button>
    </div>
  );
}
