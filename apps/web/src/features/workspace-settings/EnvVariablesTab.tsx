import type { EnvVariable } from '@slipway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Eye, EyeOff, KeyRound, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  deleteAllEnvVariables,
  deleteEnvVariable,
  envVariablesKey,
  updateEnvVariable,
  uploadEnvVariables,
  useEnvVariables,
} from '../../api/envVariables';
import { AsyncSection } from '../../components/AsyncSection';
import { DataTable } from '../../components/DataTable';
import { useDialogs } from '../../components/DialogsProvider';
import { EmptyState } from '../../components/EmptyState';
import { SettingsLoadError } from '../../components/settings/SettingsLoadError';
import { Alert, Button } from '../../components/ui';
import { fieldClasses } from '../../components/ui/Input';
import { countOf, NOUNS } from '../../lib/plural';
import { AddVariablesDialog } from './AddVariablesDialog';
import { envDeleteError, envLoadError, envSaveError } from './envMessages';

export function EnvVariablesTab({ workspace }: { workspace: string }) {
  const query = useEnvVariables(workspace);
  return (
    <AsyncSection query={query} failed={(error) => <SettingsLoadError message={envLoadError(error)} />}>
      {(variables) => <EnvVariables workspace={workspace} variables={variables} />}
    </AsyncSection>
  );
}

/** The table with inline edit, or the empty state; both add through the same dialog. */
function EnvVariables({ workspace, variables }: { workspace: string; variables: EnvVariable[] }) {
  const dialogs = useDialogs();
  const [actionError, setActionError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ key: string; value: string } | null>(null);
  const [revealed, setRevealed] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const queryClient = useQueryClient();
  // After every change, and when an edit is abandoned: the server's list again.
  const reload = () => queryClient.invalidateQueries({ queryKey: envVariablesKey(workspace) });

  const saveEdit = async () => {
    if (!editing) return;
    const current = editing;
    setEditing(null);
    if (variables.find((v) => v.key === current.key)?.value === current.value) return;
    try {
      await updateEnvVariable(workspace, current.key, current.value);
      setActionError(null);
    } catch (error) {
      setActionError(envSaveError(error));
    }
    await reload();
  };

  const remove = async (key: string) => {
    try {
      await deleteEnvVariable(workspace, key);
      setActionError(null);
    } catch (error) {
      setActionError(envDeleteError(error));
    }
    await reload();
  };

  const removeAll = async () => {
    const ok = await dialogs.confirm(
      `Delete all ${variables.length} environment variables of ${workspace}? This cannot be undone.`,
      { title: 'Delete All', confirmLabel: 'Delete All', destructive: true },
    );
    if (!ok) return;
    try {
      await deleteAllEnvVariables(workspace);
      setActionError(null);
    } catch (error) {
      setActionError(envDeleteError(error));
    }
    await reload();
  };

  const upload = async (rows: EnvVariable[]) => {
    setUploading(true);
    setUploadError(null);
    try {
      await uploadEnvVariables(workspace, rows);
      setAdding(false);
      await reload();
    } catch (error) {
      setUploadError(envSaveError(error));
    } finally {
      setUploading(false);
    }
  };

  const addDialog = (
    <AddVariablesDialog
      open={adding}
      busy={uploading}
      error={uploadError}
      onClose={() => setAdding(false)}
      onSave={(rows) => void upload(rows)}
    />
  );

  const openAddDialog = () => {
    setUploadError(null);
    setAdding(true);
  };

  if (variables.length === 0) {
    return (
      <EmptyState
        icon={KeyRound}
        title="No Environment Variables"
        description="Variables are passed to the workspace's containers on the next deploy."
      >
        {actionError && (
          <Alert tone="error" className="mt-4">
            {actionError}
          </Alert>
        )}
        <Button className="mt-6" onClick={openAddDialog} icon={Plus}>
          Add Environment Variables
        </Button>
        {addDialog}
      </EmptyState>
    );
  }

  const toggleReveal = (key: string) =>
    setRevealed((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-600" data-testid="env-count">
          {countOf(variables.length, NOUNS.variable)}
        </p>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={openAddDialog} icon={Plus}>
            Add More Variables
          </Button>
          <Button variant="danger" onClick={() => void removeAll()} icon={Trash2}>
            Delete All
          </Button>
        </div>
      </div>
      {actionError && <Alert tone="error">{actionError}</Alert>}
      <DataTable
        look="card"
        rows={variables}
        rowKey={(variable) => variable.key}
        rowAttributes={() => ({ 'data-testid': 'env-row' })}
        columns={[
          {
            header: 'Key',
            className: 'font-mono text-xs font-medium text-zinc-900',
            cell: (variable) => variable.key,
          },
          {
            header: 'Value',
            cell: (variable) =>
              editing?.key === variable.key ? (
                <input
                  aria-label={`Value of ${variable.key}`}
                  autoFocus
                  value={editing.value}
                  onChange={(event) => setEditing({ key: variable.key, value: event.target.value })}
                  onBlur={() => void saveEdit()}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') {
                      event.preventDefault();
                      event.currentTarget.blur();
                    } else if (event.key === 'Escape') {
                      event.preventDefault();
                      setEditing(null);
                      void reload();
                    }
                  }}
                  className={`${fieldClasses(false)} font-mono text-xs`}
                />
              ) : (
                <button
                  type="button"
                  title="Click to edit"
                  onClick={() => setEditing({ key: variable.key, value: variable.value })}
                  className="max-w-md truncate text-left font-mono text-xs text-zinc-700 hover:text-zinc-950"
                  data-testid="env-value"
                >
                  {revealed.has(variable.key) ? variable.value || '(empty)' : '••••••••'}
                </button>
              ),
          },
          {
            header: 'Actions',
            alignEnd: true,
            headerClassName: 'w-32',
            cell: (variable) => {
              const shown = revealed.has(variable.key);
              return (
                <div className="flex justify-end gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`${shown ? 'Hide' : 'Show'} ${variable.key}`}
                    onClick={() => toggleReveal(variable.key)}
                    icon={shown ? EyeOff : Eye}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Edit ${variable.key}`}
                    onClick={() => setEditing({ key: variable.key, value: variable.value })}
                    icon={Pencil}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${variable.key}`}
                    onClick={() => void remove(variable.key)}
                    icon={Trash2}
                    iconClassName="h-4 w-4 text-red-600"
                  />
                </div>
              );
            },
          },
        ]}
      />
      {addDialog}
    </div>
  );
}
