import type { PreviewVariable } from '@slipway/contract';
import { KeyRound } from 'lucide-react';
import { usePreviewVariables, useSetPreviewVariable } from '../../api/previews';
import { AsyncSection } from '../../components/AsyncSection';
import { DataTable } from '../../components/DataTable';
import { SettingsCard } from '../../components/settings/SettingsCard';
import { settingsLoadError } from '../../components/settings/SettingsLoadError';
import { Alert } from '../../components/ui';
import { PreviewValueCell } from './PreviewValueCell';
import { givenCount } from './previewVariableView';

/** Which of the workspace's variables previews get, and with which value; never a value shown. */
export function PreviewVariablesCard({ workspace }: { workspace: string }) {
  const variables = usePreviewVariables(workspace);
  const change = useSetPreviewVariable(workspace);
  const busyKey = change.isPending ? change.variables?.key : undefined;

  return (
    <SettingsCard
      title="Variables for previews"
      icon={KeyRound}
      description="None by default. Marked “also for previews”, a variable reaches previews with production's value unless you give it a value of its own for previews — do, for anything that points at production's data."
    >
      <div className="space-y-3">
        {change.error && <Alert tone="error">{change.error.message}</Alert>}
        <AsyncSection
          query={variables}
          loading="card"
          failed={settingsLoadError}
          empty={
            <p className="text-sm text-zinc-500">
              This workspace has no variables: previews run with none. Add them in Environment Variables.
            </p>
          }
        >
          {(list) => (
            <>
              <p className="text-xs text-zinc-500">{givenCount(list)}</p>
              <DataTable
                label="Variables for previews"
                look="compact"
                rows={list}
                rowKey={(variable) => variable.key}
                rowAttributes={(variable) => ({
                  'data-testid': 'preview-variable',
                  'data-key': variable.key,
                })}
                columns={[
                  {
                    header: 'Key',
                    className:
                      'py-2.5 align-top font-mono text-xs font-medium text-zinc-900 break-all min-w-28',
                    cell: (variable) => variable.key,
                  },
                  {
                    header: 'Also for previews',
                    className: 'py-2.5 align-top',
                    cell: (variable: PreviewVariable) => (
                      <input
                        type="checkbox"
                        className="h-4 w-4 rounded border-zinc-300 accent-accent-600"
                        aria-label={`Give ${variable.key} to previews`}
                        checked={variable.also_for_previews || variable.has_preview_value}
                        disabled={busyKey === variable.key}
                        onChange={(event) =>
                          change.mutate({
                            key: variable.key,
                            change: { also_for_previews: event.target.checked },
                          })
                        }
                      />
                    ),
                  },
                  {
                    header: 'Value for previews',
                    className: 'py-2.5 align-top',
                    cell: (variable) => (
                      <PreviewValueCell
                        variable={variable}
                        busy={busyKey === variable.key}
                        onSave={(value) =>
                          change.mutateAsync({ key: variable.key, change: { preview_value: value } })
                        }
                      />
                    ),
                  },
                ]}
              />
            </>
          )}
        </AsyncSection>
      </div>
    </SettingsCard>
  );
}
