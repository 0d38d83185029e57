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

/**
 * Reloads once per tab for the failed chunk `chunk`; true when the reload was started. The guard
 * remembers which chunk it was: only that chunk's arrival lifts it (see chunkLoaded).
 */
export function reloadOnceForStaleChunk(chunk: string): boolean {
  const store = storage();
  if (!store || store.getItem(RELOADED_KEY) !== null) return false;
  store.setItem(RELOADED_KEY, chunk);
  window.location.reload();
  return true;
}

/**
 * `chunk` loaded: if the page was reloaded for it, the next stale chunk may reload again. Another
 * chunk arriving lifts nothing: after the reload the header's chunk often lands before the missing
 * page chunk fails again, and the page would reload without end.
 */
export function chunkLoaded(chunk: string): void {
  const store = storage();
  if (store?.getItem(RELOADED_KEY) === chunk) store.removeItem(RELOADED_KEY);
}

/** Pauses before each new attempt at a chunk whose fetch failed: a dropped connection or a network change. */
export const CHUNK_RETRY_DELAYS_MS = [300, 1_000];

/**
 * A dynamic import of the chunk named `chunk` that, when the fetch fails, asks again (browsers fetch a failed
 * module anew: a connection that dropped, or a network change that aborted every request in flight, passes),
 * then, when the chunk is stale, reloads the page once (and never settles meanwhile) instead of failing; any
 * other failure, or a second one, is thrown.
 */
export async function importOrReload<Module>(
  chunk: string,
  load: () => Promise<Module>,
  delaysMs: readonly number[] = CHUNK_RETRY_DELAYS_MS,
): Promise<Module> {
  let module: Module;
  try {
    module = await loadWithRetries(load, delaysMs);
  } catch (error) {
    if (isChunkLoadError(error) && reloadOnceForStaleChunk(chunk)) return new Promise<Module>(() => {});
    throw error;
  }
  chunkLoaded(chunk);
  return module;
}

async function loadWithRetries<Module>(
  load: () => Promise<Module>,
  delaysMs: readonly number[],
): Promise<Module> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      const delay = delaysMs[attempt];
      if (!isChunkLoadError(error) || delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
