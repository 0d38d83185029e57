import type { Logger } from 'pino';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { publishRoutes, recordedTargets } from './publishedRoutes.js';

/** How often the route check reads which workspaces have routes (it asks the proxy every 10 s). */
export const ROUTED_LIST_MS = 60_000;

/**
 * Puts back the routes the proxy lost: a Caddy that restarted empty, or whose configuration was replaced,
 * serves nothing until every workspace's recorded routes are published again. The platform runs it as
 * `ingress-routes` (the schedule catalogue: every 10 s, so a lost route is back within 30 s, in one replica).
 */
export function createRouteRestorer(deps: {
  ingress: Ingress;
  workspaces: Pick<WorkspacesRepository, 'listRouted' | 'listRoutedIds' | 'update'>;
  logger: Logger;
}) {
  const { ingress, logger } = deps;
  /**
   * The routed workspaces' ids, read again every ROUTED_LIST_MS: a check at rest reads no workspace row. A list
   * read empty is read again at every check: with nothing to ask the proxy about, a workspace routed since (the
   * first deployments after a start) would otherwise go unchecked until the list was due, and a Caddy that
   * restarted empty meanwhile would serve nothing for up to a minute.
   */
  let routedIds: string[] = [];
  let listedAt = Number.NEGATIVE_INFINITY;

  /** Publishes again the routes of every workspace the proxy has none of; returns how many. */
  async function restoreMissing(): Promise<number> {
    if (ingress.kind === 'direct') return 0;
    if (routedIds.length === 0 || Date.now() - listedAt >= ROUTED_LIST_MS) {
      routedIds = await deps.workspaces.listRoutedIds();
      listedAt = Date.now();
    }
    if (routedIds.length === 0 || (await ingress.missing(routedIds)).length === 0) return 0;
    // Something is missing: the rows are read as they are now and asked about again (all of them: a Caddy that
    // restarted empty lost the routes of workspaces newer than the kept ids too).
    const routed = await deps.workspaces.listRouted();
    routedIds = routed.map((workspace) => workspace.id);
    listedAt = Date.now();
    const missing = new Set(await ingress.missing(routedIds));
    let restored = 0;
    for (const workspace of routed.filter((row) => missing.has(row.id))) {
      await publishRoutes(deps, workspace, recordedTargets(workspace));
      logger.warn({ workspaceId: workspace.id }, 'ingress routes were missing; restored');
      restored++;
    }
    return restored;
  }

  return { restoreMissing };
}
