/** Rejects with the signal's reason once it is aborted, whether the work listens to it or not. */
export function untilStopped<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, stopped]).finally(() => {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  });
}
