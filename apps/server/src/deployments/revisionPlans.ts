import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import type { NormalizedService } from '../infra/compose/composeProject.js';
import { pruneWorkspaceImages } from '../infra/docker/projectResources.js';
import type { HostPorts } from './hostPorts.js';
import type { ServiceRole } from './serviceRoles.js';

/**
 * What it takes to start a deployed version again without building: its checked Compose project (bind
 * mounts already pointing at that version's files), the images it built, its service roles and host ports.
 * The workspace's variables are not in it; they are added when it starts (see deployApplication's
 * `projectFor`). Kept in DATA_DIR/revisions/{workspace}/{deployment}.json, readable by the server only.
 */
export interface RevisionPlan {
  deploymentId: string;
  commitSha: string | null;
  normalized: Record<string, unknown>;
  services: NormalizedService[];
  imageNames: Record<string, string>;
  roles: ServiceRole[];
  hostPorts: HostPorts;
  /** Tells whether the workspace's variables changed since (absent in plans written before it existed). */
  envDigest?: string;
}

/**
 * A digest of the workspace's variables as a version ran with them. Whoever can read the plans can read the
 * data directory's key to the variables themselves, so it hides nothing they could not read already.
 */
export const envDigest = (workspaceId: string, env: { key: string; value: string }[]) =>
  createHash('sha256')
    .update(JSON.stringify([workspaceId, env.map(({ key, value }) => [key, value])]))
    .digest('hex');

const revisionsDir = (dataDir: string, workspaceId: string) => path.join(dataDir, 'revisions', workspaceId);
const planFile = (dataDir: string, workspaceId: string, deploymentId: string) =>
  path.join(revisionsDir(dataDir, workspaceId), `${deploymentId}.json`);

export async function saveRevisionPlan(dataDir: string, workspaceId: string, plan: RevisionPlan) {
  await mkdir(revisionsDir(dataDir, workspaceId), { recursive: true, mode: 0o700 });
  await writeFile(planFile(dataDir, workspaceId, plan.deploymentId), JSON.stringify(plan), { mode: 0o600 });
}

export async function loadRevisionPlan(
  dataDir: string,
  workspaceId: string,
  deploymentId: string,
): Promise<RevisionPlan | undefined> {
  const text = await readFile(planFile(dataDir, workspaceId, deploymentId), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as RevisionPlan);
}

/**
 * Removes the workspace's images except those of these deployments: what each built, and every image name its
 * plan runs (a plan may run an image an older deployment built). Returns how many went.
 */
export async function pruneImagesToPlans(
  docker: Docker,
  dataDir: string,
  workspaceId: string,
  deploymentIds: string[],
): Promise<number> {
  const plans = await Promise.all(deploymentIds.map((id) => loadRevisionPlan(dataDir, workspaceId, id)));
  const names = plans.flatMap((plan) => Object.values(plan?.imageNames ?? {}));
  return pruneWorkspaceImages(docker, workspaceId, deploymentIds, names);
}

/** Keeps the plans of these deployments and removes the workspace's others. */
export async function pruneRevisionPlans(dataDir: string, workspaceId: string, keep: string[]) {
  const files = await readdir(revisionsDir(dataDir, workspaceId)).catch(() => [] as string[]);
  for (const file of files) {
    if (!keep.includes(file.replace(/\.json$/, ''))) {
      await rm(path.join(revisionsDir(dataDir, workspaceId), file), { force: true });
    }
  }
}

export async function removeRevisionPlans(dataDir: string, workspaceId: string) {
  await rm(revisionsDir(dataDir, workspaceId), { recursive: true, force: true });
}

/** The deployment a rollback goes back to, as its row records it (`metadata.rollback_of`). */
export function rollbackOf(row: { metadata: unknown }): string | undefined {
  const value = (row.metadata as { rollback_of?: unknown } | null)?.rollback_of;
  return typeof value === 'string' ? value : undefined;
}
