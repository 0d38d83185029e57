import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkLoaded, isChunkLoadError, reloadOnceForStaleChunk } from './chunkReload';

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

  it('reloads once for a stale chunk, then leaves a second failure to the error view', () => {
    const reload = fakeWindow();
    expect(reloadOnceForStaleChunk('DashboardPage')).toBe(true);
    expect(reloadOnceForStaleChunk('DashboardPage')).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('may reload again once the chunk it reloaded for has loaded (the next deployment)', () => {
    const reload = fakeWindow();
    expect(reloadOnceForStaleChunk('DashboardPage')).toBe(true);
    chunkLoaded('DashboardPage');
    expect(reloadOnceForStaleChunk('MonitoringPage')).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('stays guarded when another chunk loads first (the header before the missing page fails again)', () => {
    const reload = fakeWindow();
    expect(reloadOnceForStaleChunk('DashboardPage')).toBe(true);
    chunkLoaded('UserHeader');
    expect(reloadOnceForStaleChunk('DashboardPage')).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
