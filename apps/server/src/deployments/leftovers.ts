import { rm } from 'node:fs/promises';
import path from 'node:path';
import { removeProjectResources } from '../infra/docker/projectResources.js';
import type { DockerTarget } from '../vm-providers/vmProvider.js';
import { type RouteDeps, unpublishRoutes } from './publishedRoutes.js';
import type { WorkflowDeps } from './runState.js';

/**
 * What a failed first deployment started on its engine (containers, networks, volumes, images) goes; a failure
 * is logged and the failure path goes on.
 */
export async function removeLeftovers(
  deps: Pick<WorkflowDeps, 'logger'>,
  target: DockerTarget,
  workspaceId: string,
): Promise<void> {
  await removeProjectResources(target.docker, workspaceId, { volumes: true, images: true }).catch((error) =>
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
export async function removeWorkDir(deps: Pick<WorkflowDeps, 'logger'>, workDir: string): Promise<void> {
  await rm(workDir, { recursive: true, force: true }).catch((error) =>
    deps.logger.warn({ err: error, workDir }, "removing a deployment's work directory failed"),
  );
}

/** A workspace's routes, when it stops serving; a failure is logged with `during`, what the workspace went through. */
export async function removeRoutes(
  deps: RouteDeps & Pick<WorkflowDeps, 'logger'>,
  workspaceId: string,
  during: string,
) {
  await unpublishRoutes(deps, workspaceId).catch((error) =>
    deps.logger.warn({ err: error, workspaceId, during }, "removing a workspace's routes failed"),
  );
}
