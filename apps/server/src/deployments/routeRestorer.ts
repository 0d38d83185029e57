import type { Logger } from 'pino';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { publishRoutes, recordedTargets } from './publishedRoutes.js';

/**
 * Puts back the routes the proxy lost: a Caddy that restarted empty, or whose configuration was replaced,
 * serves nothing until every workspace's recorded routes are published again. The platform runs it as
 * `ingress-routes` (the schedule catalogue: every 10 s, so a lost route is back within 30 s, in one replica).
 */
export function createRouteRestorer(deps: {
  ingress: Ingress;
  workspaces: Pick<WorkspacesRepository, 'listRouted' | 'update'>;
  logger: Logger;
}) {
  const { ingress, logger } = deps;

  /** Publishes again the routes of every workspace the proxy has none of; returns how many. */
  async function restoreMissing(): Promise<number> {
    if (ingress.kind === 'direct') return 0;
    const routed = await deps.workspaces.listRouted();
    if (routed.length === 0) return 0;
    const missing = new Set(await ingress.missing(routed.map((workspace) => workspace.id)));
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
