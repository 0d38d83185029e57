/**
 * What else must forget the session when the user logs out. The data cache registers itself here when a
 * screen first loads it, so the shell's logout clears it without importing (and so loading) it.
 */
const listeners = new Set<() => void>();

export function onSignedOut(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceSignedOut(): void {
  for (const listener of listeners) listener();
}
