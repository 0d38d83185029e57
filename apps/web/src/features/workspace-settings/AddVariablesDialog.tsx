import { Plus, X } from 'lucide-react';
import { type ClipboardEvent, useEffect, useState } from 'react';
import { Alert, Button, Dialog } from '../../components/ui';
import { fieldClasses } from '../../components/ui/Input';
import { completePairs, type EnvPair, envPaste } from '../../lib/envFile';
import { rowsProblem } from './envRows';

const EMPTY_ROW: EnvPair = { key: '', value: '' };

/** 'Add More Variables': key/value rows (KEY=VALUE lines can be pasted), uploaded together. */
export function AddVariablesDialog({
  open,
  busy,
  error,
  onClose,
  onSave,
}: {
  open: boolean;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onSave: (variables: Array<{ key: string; value: string }>) => void;
}) {
  const [rows, setRows] = useState<EnvPair[]>([EMPTY_ROW]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (open) {
      setRows([EMPTY_ROW]);
      setProblem(null);
    }
  }, [open]);

  const setRow = (index: number, patch: Partial<EnvPair>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    const parsed = envPaste(event.clipboardData.getData('text'));
    if (!parsed) return;
    event.preventDefault();
    setRows((current) =>
      [...current.slice(0, index), ...parsed, ...current.slice(index + 1)].filter(
        (r, i, all) => r.key || r.value || i === all.length - 1,
      ),
    );
  };

  const save = () => {
    const variables = completePairs(rows);
    const found = rowsProblem(variables);
    setProblem(found ?? null);
    if (!found) onSave(variables);
  };

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      title="Add More Variables"
      description="New keys are added; keys that already exist get the new value. Paste KEY=VALUE lines to fill several rows."
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={save} loading={busy}>
            Save Variables
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {(problem || error) && <Alert tone="error">{problem ?? error}</Alert>}
        {rows.map((row, index) => (
          <div key={index} className="flex gap-2">
            <input
              aria-label={`Key ${index + 1}`}
              placeholder="KEY"
              value={row.key}
              onPaste={onPaste(index)}
              onChange={(event) => setRow(index, { key: event.target.value })}
              className={`${fieldClasses(false)} font-mono`}
            />
            <input
              aria-label={`Value ${index + 1}`}
              placeholder="value"
              value={row.value}
              onChange={(event) => setRow(index, { value: event.target.value })}
              className={`${fieldClasses(false)} font-mono`}
            />
            <Button
              variant="ghost"
              aria-label={`Remove row ${index + 1}`}
              onClick={() =>
                setRows((current) =>
                  current.length > 1 ? current.filter((_, i) => i !== index) : [EMPTY_ROW],
                )
              }
            >
              <X className="h-4 w-4" aria-hidden="true" />
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setRows((current) => [...current, EMPTY_ROW])}
          icon={Plus}
        >
          Add Variable
        </Button>
      </div>
    </Dialog>
  );
}
