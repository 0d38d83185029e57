import type { Preview } from '@slipway/contract';
import { RotateCw, ShieldCheck, Trash2 } from 'lucide-react';
import { canApprove, previewName } from '../../../components/previews/previewView';
import { Button, cn } from '../../../components/ui';

export type PreviewAction = 'redeploy' | 'approve' | 'remove';

/** Approve (only while it waits for it), Redeploy and Remove, each naming its preview for screen readers. */
export function PreviewActions({
  preview,
  busy,
  onRedeploy,
  onApprove,
  onRemove,
  align = 'end',
}: {
  preview: Preview;
  /** The action under way on this row, if any. */
  busy: PreviewAction | null;
  onRedeploy: () => void;
  onApprove: () => void;
  onRemove: () => void;
  /** At the row's end in the table; at the start under the pull request on a phone. */
  align?: 'start' | 'end';
}) {
  const name = previewName(preview);
  const removing = preview.state === 'removing';
  return (
    <div className={cn('flex flex-wrap gap-2', align === 'end' ? 'justify-end' : 'justify-start')}>
      {canApprove(preview) && (
        <Button
          size="sm"
          icon={ShieldCheck}
          aria-label={`Approve ${name}`}
          loading={busy === 'approve'}
          onClick={onApprove}
        >
          Approve
        </Button>
      )}
      <Button
        size="sm"
        variant="secondary"
        icon={RotateCw}
        aria-label={`Redeploy ${name}`}
        loading={busy === 'redeploy'}
        disabled={removing || canApprove(preview)}
        onClick={onRedeploy}
      >
        Redeploy
      </Button>
      <Button
        size="sm"
        variant="secondary"
        icon={Trash2}
        aria-label={`Remove ${name}`}
        loading={busy === 'remove'}
        disabled={removing}
        onClick={onRemove}
      >
        Remove
      </Button>
    </div>
  );
}
