import type { Preview } from '@slipway/contract';
import { useApprovePreview, useRedeployPreview, useRemovePreview } from '../../../api/previews';
import { DataTable } from '../../../components/DataTable';
import { useDialogs } from '../../../components/DialogsProvider';
import { PreviewLinks } from '../../../components/previews/PreviewLinks';
import { PreviewStateBadge } from '../../../components/previews/PreviewStateBadge';
import { removeQuestion } from '../../../components/previews/previewView';
import { Alert } from '../../../components/ui';
import { PreviewActions } from './PreviewActions';
import { PreviewPullRequest } from './PreviewPullRequest';

/** One row per pull request: what it is, its state and why, its links, and what can be done about it. */
export function PreviewTable({ workspace, previews }: { workspace: string; previews: Preview[] }) {
  const dialogs = useDialogs();
  const redeploy = useRedeployPreview(workspace);
  const approve = useApprovePreview(workspace);
  const remove = useRemovePreview(workspace);
  const error = redeploy.error ?? approve.error ?? remove.error;

  const busyOn = (preview: Preview) =>
    redeploy.isPending && redeploy.variables?.number === preview.number
      ? 'redeploy'
      : approve.isPending && approve.variables?.number === preview.number
        ? 'approve'
        : remove.isPending && remove.variables?.number === preview.number
          ? 'remove'
          : null;

  async function confirmRemove(preview: Preview) {
    const ok = await dialogs.confirm(removeQuestion(preview), {
      title: 'Remove preview',
      confirmLabel: 'Remove',
      destructive: true,
    });
    if (ok) remove.mutate(preview);
  }

  const actions = (preview: Preview, align: 'start' | 'end' = 'end') => (
    <PreviewActions
      preview={preview}
      align={align}
      busy={busyOn(preview)}
      onRedeploy={() => redeploy.mutate(preview)}
      onApprove={() => approve.mutate(preview)}
      onRemove={() => void confirmRemove(preview)}
    />
  );

  return (
    <div className="space-y-3">
      {error && <Alert tone="error">{error.message}</Alert>}
      <DataTable
        label="Previews"
        look="card"
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
            // On a phone the state, links and buttons go under the pull request, not off the screen's edge.
            cell: (preview) => (
              <div className="space-y-3">
                <PreviewPullRequest preview={preview} />
                <div className="space-y-3 sm:hidden">
                  <PreviewStateBadge preview={preview} />
                  <PreviewLinks preview={preview} />
                  {actions(preview, 'start')}
                </div>
              </div>
            ),
            className: 'py-3 align-top min-w-48',
          },
          {
            header: 'State',
            cell: (preview) => <PreviewStateBadge preview={preview} />,
            className: 'hidden py-3 align-top min-w-36 sm:table-cell',
            headerClassName: 'hidden sm:table-cell',
          },
          {
            header: 'URLs',
            cell: (preview) => <PreviewLinks preview={preview} />,
            className: 'hidden py-3 align-top min-w-48 sm:table-cell',
            headerClassName: 'hidden sm:table-cell',
          },
          {
            header: 'Actions',
            headerContent: <span className="sr-only">Actions</span>,
            alignEnd: true,
            className: 'hidden py-3 align-top sm:table-cell',
            headerClassName: 'hidden sm:table-cell',
            cell: (preview) => actions(preview),
          },
        ]}
      />
    </div>
  );
}
