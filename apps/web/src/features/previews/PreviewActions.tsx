import type { Preview } from '@slipway/contract';
import { type LucideIcon, RotateCw, ShieldCheck, Trash2 } from 'lucide-react';
import { canApprove, previewName } from '../../components/previews/previewView';
import { RowButton } from '../../components/RowButton';
import { cn } from '../../components/ui';

export const PREVIEW_ACTIONS = ['redeploy', 'approve', 'remove'] as const;
export type PreviewAction = (typeof PREVIEW_ACTIONS)[number];

interface ActionButton {
  action: PreviewAction;
  label: string;
  icon: LucideIcon;
  primary?: boolean;
  disabled?: boolean;
}

/** Approve (only while it waits for it), Redeploy and Remove, each naming its preview for screen readers. */
export function PreviewActions({
  preview,
  busy,
  onAction,
  align = 'end',
}: {
  preview: Preview;
  /** The action under way on this row, if any. */
  busy: PreviewAction | null;
  onAction: (action: PreviewAction) => void;
  /** At the row's end in the table; at the start under the pull request on a phone. */
  align?: 'start' | 'end';
}) {
  const name = previewName(preview);
  const removing = preview.state === 'removing';
  const awaitingApproval = canApprove(preview);
  const buttons: ActionButton[] = [
    ...(awaitingApproval
      ? [{ action: 'approve', label: 'Approve', icon: ShieldCheck, primary: true } as const]
      : []),
    { action: 'redeploy', label: 'Redeploy', icon: RotateCw, disabled: removing || awaitingApproval },
    { action: 'remove', label: 'Remove', icon: Trash2, disabled: removing },
  ];
  return (
    <div className={cn('flex flex-wrap gap-2', align === 'end' ? 'justify-end' : 'justify-start')}>
      {buttons.map(({ action, label, icon, primary, disabled }) => (
        <RowButton
          key={action}
          label={label}
          of={name}
          icon={icon}
          busy={busy === action}
          disabled={disabled}
          primary={primary}
          onClick={() => onAction(action)}
        />
      ))}
    </div>
  );
}
