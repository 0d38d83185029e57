import type { ReactNode } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';

export type InfoDialogKind = 'info' | 'confirm';

interface InfoDialogProps {
  open: boolean;
  kind?: InfoDialogKind;
  title?: string;
  message: ReactNode;
  confirmLabel?: string;
  destructive?: boolean;
  /** Info dialogs: OK. Confirm dialogs: Confirm. */
  onConfirm: () => void;
  /** Cancel, Escape, backdrop and the close button. */
  onCancel: () => void;
}

/**
 * The app's alert / confirm dialog. An information dialog has one OK button; a confirmation
 * dialog has Cancel and Confirm. Use `useDialogs()` from src/components/DialogsProvider for the
 * promise-based form.
 */
export function InfoDialog({
  open,
  kind = 'info',
  title,
  message,
  confirmLabel,
  destructive = false,
  onConfirm,
  onCancel,
}: InfoDialogProps) {
  const footer =
    kind === 'info' ? (
      <Button onClick={onConfirm} data-autofocus>
        OK
      </Button>
    ) : (
      <>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={destructive ? 'danger' : 'primary'} onClick={onConfirm} data-autofocus>
          {confirmLabel ?? 'Confirm'}
        </Button>
      </>
    );
  return (
    <Dialog
      open={open}
      onClose={kind === 'info' ? onConfirm : onCancel}
      title={title ?? (kind === 'info' ? 'Notice' : 'Please confirm')}
      size="sm"
      footer={footer}
    >
      <div className="text-sm leading-relaxed whitespace-pre-line text-zinc-700">{message}</div>
    </Dialog>
  );
}
