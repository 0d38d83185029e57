/**
 * After a new version is deployed, an open tab still asks for the old build's chunks, which no longer
 * exist: the import fails with 'Failed to fetch dynamically imported module' (Chrome), 'Importing a
 * module script failed' (Safari) or 'error loading dynamically imported module' (Firefox). Reloading
 * the page once fetches the new build. sessionStorage remembers that reload for a minute, so a chunk that
 * is missing for another reason shows the error view instead of reloading forever. (The guard is not
 * cleared when another chunk loads: after the reload the app shell's own chunks load before the page's,
 * and clearing it then made a missing page chunk reload the tab without end.)
 */
const RELOADED_KEY = 'slipway.chunkReloaded';
/** How long after a reload another stale chunk is an error rather than a reason to reload again. */
export const RELOAD_GUARD_MS = 60_000;

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Reloads for a failed chunk unless the tab reloaded for one within the last minute; true when it did. */
export function reloadOnceForStaleChunk(now = Date.now()): boolean {
  const store = storage();
  if (!store) return false;
  const last = Number(store.getItem(RELOADED_KEY));
  if (last > 0 && now - last < RELOAD_GUARD_MS) return false;
  store.setItem(RELOADED_KEY, String(now));
  window.location.reload();
  return true;
}

/**
 * A dynamic import that, when its chunk is stale, reloads the page once (and never settles meanwhile)
 * instead of failing; any other failure, or a second one within the guard's minute, is thrown.
 */
export async function importOrReload<Module>(load: () => Promise<Module>): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    if (isChunkLoadError(error) && reloadOnceForStaleChunk()) return new Promise<Module>(() => {});
    throw error;
  }
}
