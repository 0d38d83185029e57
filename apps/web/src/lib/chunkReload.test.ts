import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkLoaded, importOrReload, isChunkLoadError, reloadOnceForStaleChunk } from './chunkReload';

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

  it.each([
    {
      title: 'reloads once for a stale chunk, then leaves a second failure to the error view',
      loaded: null,
      next: 'DashboardPage',
      reloadsAgain: false,
    },
    {
      title: 'may reload again once the chunk it reloaded for has loaded (the next deployment)',
      loaded: 'DashboardPage',
      next: 'MonitoringPage',
      reloadsAgain: true,
    },
    {
      title: 'stays guarded when another chunk loads first (the header before the missing page fails again)',
      loaded: 'UserHeader',
      next: 'DashboardPage',
      reloadsAgain: false,
    },
  ])('$title', ({ loaded, next, reloadsAgain }) => {
    const reload = fakeWindow();
    expect(reloadOnceForStaleChunk('DashboardPage')).toBe(true);
    if (loaded) chunkLoaded(loaded);
    expect(reloadOnceForStaleChunk(next)).toBe(reloadsAgain);
    expect(reload).toHaveBeenCalledTimes(reloadsAgain ? 2 : 1);
  });
});

describe('importOrReload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks again for a chunk whose fetch failed once (a dropped connection, a network change), without a reload', async () => {
    const reload = vi.fn();
    vi.stubGlobal('window', { sessionStorage: undefined, location: { reload } });
    let calls = 0;
    const load = async () => {
      calls++;
      if (calls === 1)
        throw new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js');
      return { value: 42 };
    };
    expect(await importOrReload('a', load, [0])).toEqual({ value: 42 });
    expect(calls).toBe(2);
    expect(reload).not.toHaveBeenCalled();
  });

  it('throws at once what is not a failed fetch, and a fetch that keeps failing once the retries are spent', async () => {
    vi.stubGlobal('window', { sessionStorage: undefined, location: { reload: vi.fn() } });
    let calls = 0;
    const broken = async () => {
      calls++;
      throw new Error('Cannot read properties of undefined');
    };
    await expect(importOrReload('b', broken, [0, 0])).rejects.toThrow(/Cannot read/);
    expect(calls).toBe(1);
    const failing = async () => {
      calls++;
      throw new TypeError('Failed to fetch dynamically imported module: https://x/assets/c.js');
    };
    calls = 0;
    await expect(importOrReload('c', failing, [0, 0])).rejects.toThrow(/Failed to fetch/);
    expect(calls).toBe(3);
  });
});
