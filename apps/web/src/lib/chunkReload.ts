/**
 * After a new version is deployed, an open tab still asks for the old build's chunks, which no longer
 * exist: the import fails with 'Failed to fetch dynamically imported module' (Chrome), 'Importing a
 * module script failed' (Safari) or 'error loading dynamically imported module' (Firefox). Reloading
 * the page once fetches the new build. sessionStorage remembers that reload, so a chunk that is
 * missing for another reason shows the error view instead of reloading forever.
 */
const RELOADED_KEY = 'slipway.chunkReloaded';

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

/** Reloads once per tab for a failed chunk; true when the reload was started. */
export function reloadOnceForStaleChunk(): boolean {
  const store = storage();
  if (!store || store.getItem(RELOADED_KEY)) return false;
  store.setItem(RELOADED_KEY, String(Date.now()));
  window.location.reload();
  return true;
}

/** A chunk loaded: the next stale chunk may reload again. */
export function chunkLoaded(): void {
  storage()?.removeItem(RELOADED_KEY);
}

/**
 * A dynamic import that, when its chunk is stale, reloads the page once (and never settles meanwhile)
 * instead of failing; any other failure, or a second one, is thrown. It does not clear the reload guard:
 * the HTTP client's chunk loading after a reload says nothing about the page chunk that was missing.
 */
export async function importOrReload<Module>(load: () => Promise<Module>): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    if (isChunkLoadError(error) && reloadOnceForStaleChunk()) return new Promise<Module>(() => {});
    throw error;
  }
}
