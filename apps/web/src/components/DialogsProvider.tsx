import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { InfoDialog, type InfoDialogKind } from './ui';

interface DialogRequest {
  kind: InfoDialogKind;
  message: ReactNode;
  title?: string;
  confirmLabel?: string;
  destructive?: boolean;
}

export interface Dialogs {
  /** An information dialog with OK; resolves when it is dismissed. */
  alert: (message: ReactNode, options?: { title?: string }) => Promise<void>;
  /** A confirmation dialog with Cancel and Confirm; resolves true on Confirm. */
  confirm: (
    message: ReactNode,
    options?: { title?: string; confirmLabel?: string; destructive?: boolean },
  ) => Promise<boolean>;
}

const DialogsContext = createContext<Dialogs | null>(null);

/** Promise-based alert/confirm, rendered with the design system instead of window.alert. */
export function DialogsProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<DialogRequest | null>(null);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);

  const open = useCallback((next: DialogRequest) => {
    resolver.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const close = useCallback((confirmed: boolean) => {
    resolver.current?.(confirmed);
    resolver.current = null;
    setRequest(null);
  }, []);

  const dialogs = useMemo<Dialogs>(
    () => ({
      alert: async (message, options) => {
        await open({ kind: 'info', message, ...options });
      },
      confirm: (message, options) => open({ kind: 'confirm', message, ...options }),
    }),
    [open],
  );

  return (
    <DialogsContext.Provider value={dialogs}>
      {children}
      <InfoDialog
        open={request !== null}
        kind={request?.kind}
        title={request?.title}
        message={request?.message}
        confirmLabel={request?.confirmLabel}
        destructive={request?.destructive}
        onConfirm={() => close(true)}
        onCancel={() => close(false)}
      />
    </DialogsContext.Provider>
  );
}

export function useDialogs(): Dialogs {
  const value = useContext(DialogsContext);
  if (!value) throw new Error('useDialogs must be used inside <DialogsProvider>');
  return value;
}
