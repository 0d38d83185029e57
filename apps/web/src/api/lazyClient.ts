import { importOrReload } from '../lib/chunkReload';

/**
 * The typed route client (and axios under it) for calls the shell makes — logout, the landing's public
 * config — fetched on first use, so the first JavaScript a visitor loads does not carry it. Screens import
 * ./routeClient directly: their chunk brings it.
 */
export function lazyRouteClient() {
  return importOrReload('routeClient', () => import('./routeClient'));
}
