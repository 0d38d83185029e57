/** Values shorter than this are not masked: `true`, `3000` or `prod` would blank out ordinary words. */
export const MIN_MASKED_LENGTH = 6;
export const MASKED = '********';

export type Mask = (text: string) => string;

/**
 * Replaces every occurrence of the given secret values (6 characters or more) in a text. A multi-line
 * value is printed line by line by most programs, so each of its lines is masked too.
 */
export function createSecretMask(values: Iterable<string>): Mask {
  const needles = new Set<string>();
  for (const value of values) {
    if (value.length >= MIN_MASKED_LENGTH) needles.add(value);
    for (const part of value.split(/\r?\n/)) if (part.length >= MIN_MASKED_LENGTH) needles.add(part);
  }
  // Longest first, so a value containing another is masked whole.
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const needle of ordered) if (out.includes(needle)) out = out.split(needle).join(MASKED);
    return out;
  };
}

/**
 * The one masking mechanism for every place Slipway shows or sends a workspace's output: service logs
 * (stored, and so streamed and read back), build logs, alert texts, emails and Telegram messages. The
 * secrets are the workspace's environment variable values, read through `loadValues` and kept briefly.
 */
export interface SecretMasks {
  forWorkspace(userId: string, workspaceName: string): Promise<Mask>;
}

const CACHE_MS = 5_000;

export function createSecretMasks(deps: {
  loadValues: (userId: string, workspaceName: string) => Promise<string[]>;
  onError?: (error: unknown) => void;
}): SecretMasks {
  const cache = new Map<string, { at: number; mask: Promise<Mask> }>();
  return {
    forWorkspace(userId, workspaceName) {
      const key = `${userId}\n${workspaceName}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < CACHE_MS) return hit.mask;
      const mask = deps.loadValues(userId, workspaceName).then(createSecretMask, (error: unknown) => {
        cache.delete(key);
        deps.onError?.(error);
        throw error;
      });
      cache.set(key, { at: Date.now(), mask });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value as string);
      return mask;
    },
  };
}
