import { importOrReload } from '../lib/chunkReload';

/**
 * The HTTP client (axios) for calls the shell makes — the session check, the landing's public config —
 * fetched on first use, so the first JavaScript a visitor loads does not carry it. Screens import
 * ./client directly: their chunk brings it.
 */
export async function lazyApi() {
  return (await importOrReload(() => import('./client'))).api;
}
