import type { Preview } from '@slipway/contract';
import { useApprovePreview, useRedeployPreview, useRemovePreview } from '../../api/previews';
import { actionsColumn, DataTable } from '../../components/DataTable';
import { useDialogs } from '../../components/DialogsProvider';
import { PreviewLinks } from '../../components/previews/PreviewLinks';
import { previewStatus, removeQuestion } from '../../components/previews/previewView';
import { StatusBadge } from '../../components/StatusBadge';
import { Alert } from '../../components/ui';
import { PREVIEW_ACTIONS, type PreviewAction, PreviewActions } from './PreviewActions';
import { PreviewPullRequest } from './PreviewPullRequest';

/** One row per pull request: what it is, its state and why, its links, and what can be done about it. */
export function PreviewTable({ workspace, previews }: { workspace: string; previews: Preview[] }) {
  const dialogs = useDialogs();
  const calls = {
    redeploy: useRedeployPreview(workspace),
    approve: useApprovePreview(workspace),
    remove: useRemovePreview(workspace),
  } satisfies Record<PreviewAction, unknown>;
  const error = calls.redeploy.error ?? calls.approve.error ?? calls.remove.error;

  const busyOn = (preview: Preview) =>
    PREVIEW_ACTIONS.find(
      (action) => calls[action].isPending && calls[action].variables?.number === preview.number,
    ) ?? null;

  async function act(preview: Preview, action: PreviewAction) {
    const ok =
      action !== 'remove' ||
      (await dialogs.confirm(removeQuestion(preview), {
        title: 'Remove preview',
        confirmLabel: 'Remove',
        destructive: true,
      }));
    if (ok) calls[action].mutate(preview);
  }

  const actions = (preview: Preview, align: 'start' | 'end' = 'end') => (
    <PreviewActions
      preview={preview}
      align={align}
      busy={busyOn(preview)}
      onAction={(action) => void act(preview, action)}
    />
  );

  return (
    <div className="space-y-3">
      {error && <Alert tone="error">{error.message}</Alert>}
      <DataTable
        label="Previews"
        look="tall"
        rows={previews}
        rowKey={(preview) => String(preview.number)}
        rowAttributes={(preview) => ({
          'data-testid': 'preview',
          'data-number': String(preview.number),
          'data-state': preview.state,
        })}
        columns={[
          {
            header: 'Pull request',
            cell: (preview) => <PreviewPullRequest preview={preview} />,
            className: 'min-w-48',
          },
          {
            header: 'State',
            cell: (preview) => <StatusBadge status={previewStatus(preview)} cause={preview.cause} />,
            stacksOnPhone: true,
            className: 'min-w-36',
          },
          {
            header: 'URLs',
            cell: (preview) => <PreviewLinks preview={preview} />,
            stacksOnPhone: true,
            className: 'min-w-48',
          },
          // On a phone the buttons start under the pull request instead of ending at the row's edge.
          actionsColumn((preview: Preview) => actions(preview), {
            stacksOnPhone: (preview) => actions(preview, 'start'),
          }),
        ]}
      />
    </div>
  );
}
