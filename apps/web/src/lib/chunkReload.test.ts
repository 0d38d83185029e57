import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, RELOAD_GUARD_MS, reloadOnceForStaleChunk } from './chunkReload';

describe('isChunkLoadError', () => {
  it("recognises each browser's failed dynamic import", () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://x/assets/DashboardPage-abc.js',
      'Importing a module script failed.',
      'error loading dynamically imported module: https://x/assets/a.js',
    ]) {
      expect(isChunkLoadError(new TypeError(message)), message).toBe(true);
    }
  });

  it('leaves other errors to the error view', () => {
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});

describe('reloadOnceForStaleChunk', () => {
  function fakeWindow() {
    const stored = new Map<string, string>();
    const reload = vi.fn();
    const sessionStorage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    };
    vi.stubGlobal('window', { sessionStorage, location: { reload } });
    return reload;
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reloads once for a stale chunk, then leaves a second failure within the minute to the error view', () => {
    const reload = fakeWindow();
    const reloadedAt = 1_000_000;
    expect(reloadOnceForStaleChunk(reloadedAt)).toBe(true);
    // After the reload the app shell's chunks load first; the page's chunk is still missing.
    expect(reloadOnceForStaleChunk(reloadedAt + 5_000)).toBe(false);
    expect(reloadOnceForStaleChunk(reloadedAt + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('may reload again for a later deployment, a minute on', () => {
    const reload = fakeWindow();
    expect(reloadOnceForStaleChunk(1_000_000)).toBe(true);
    expect(reloadOnceForStaleChunk(1_000_000 + RELOAD_GUARD_MS)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
