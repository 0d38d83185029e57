import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { RolloutEngine } from '../rollout/engine.js';
import { type RouteDeps, unpublishRoutes } from '../rollout/publishedRoutes.js';
import type { DeploymentDeps } from './deploymentDeps.js';

/**
 * What a failed first deployment started on its engine (containers, networks, volumes, images) goes; a failure
 * is logged and the failure path goes on.
 */
export async function removeLeftovers(
  deps: Pick<DeploymentDeps, 'logger'>,
  engine: RolloutEngine,
  workspaceId: string,
): Promise<void> {
  await engine
    .remove('serving')
    .catch((error) =>
      deps.logger.warn({ err: error, workspaceId }, 'removing what a failed deployment started failed'),
    );
}

/**
 * Where a workspace's deployment checks its repository out: the same path every time, because Compose v1 counts
 * a service's build context among the settings whose change recreates its container — a per-run path would
 * restart every built service on every redeploy. A workspace runs one deployment at a time.
 */
export const checkoutDirOf = (workRoot: string, workspaceId: string) =>
  path.join(workRoot, 'checkouts', workspaceId);

/** A deployment's checkout and build directory, once it has ended. */
export async function removeWorkDir(deps: Pick<DeploymentDeps, 'logger'>, workDir: string): Promise<void> {
  await rm(workDir, { recursive: true, force: true }).catch((error) =>
    deps.logger.warn({ err: error, workDir }, "removing a deployment's work directory failed"),
  );
}

/** A workspace's routes, when it stops serving; a failure is logged with `during`, what the workspace went through. */
export async function removeRoutes(
  deps: RouteDeps & Pick<DeploymentDeps, 'logger'>,
  workspaceId: string,
  during: string,
) {
  await unpublishRoutes(deps, workspaceId).catch((error) =>
    deps.logger.warn({ err: error, workspaceId, during }, "removing a workspace's routes failed"),
  );
}
