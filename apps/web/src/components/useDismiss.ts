import { type RefObject, useEffect, useEffectEvent } from 'react';

/**
 * While a popup is `open`: a press outside `root`, or Escape, closes it. `close` hears which (`escape`), so that
 * a menu can give the focus back to its button after Escape.
 */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  close: (how: 'outside' | 'escape') => void,
) {
  const dismiss = useEffectEvent(close);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) dismiss('outside');
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss('escape');
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, root]);
}
