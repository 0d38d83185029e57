import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { ServiceRole } from '../health/serviceRoles.js';
import type { NormalizedService } from '../infra/compose/composeProject.js';
import { pruneWorkspaceImages } from '../infra/docker/projectResources.js';
import type { Vault } from '../infra/vault/vault.js';
import type { HostPorts } from './hostPorts.js';

/**
 * What it takes to start a deployed version again without building: its checked Compose project (bind
 * mounts already pointing at that version's files), the images it built, its service roles and host ports.
 * The project was read with the workspace's variables interpolated (`${SECRET}` in `environment:`, `command:`,
 * `build.args`, labels…), so a plan holds their values: it is kept only sealed by the vault that seals the
 * variables themselves (AES-256-GCM under the data directory's key, or Key Vault), in
 * DATA_DIR/revisions/{workspace}/{deployment}.json, readable by the server only.
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

/** A version as the pipeline plans it, before its rollout gives it host ports. */
export type VersionPlan = Omit<RevisionPlan, 'hostPorts'>;

/** A plan as its file holds it: the vault's ciphertext of its JSON. */
interface SealedPlan {
  sealed: string;
}

const isSealed = (value: unknown): value is SealedPlan =>
  typeof value === 'object' && value !== null && typeof (value as SealedPlan).sealed === 'string';

/**
 * A digest of the workspace's variables as a version ran with them, keyed by the workspace so equal values in
 * two workspaces do not digest alike. It sits inside the sealed plan.
 */
export const envDigest = (workspaceId: string, env: { key: string; value: string }[]) =>
  createHash('sha256')
    .update(JSON.stringify([workspaceId, env.map(({ key, value }) => [key, value])]))
    .digest('hex');

/** The one owner of the revision plans on disk: written sealed, read through the vault, pruned with the images. */
export function createRevisionPlans(deps: { dataDir: string; vault: Vault }) {
  const root = path.join(deps.dataDir, 'revisions');
  const dirOf = (workspaceId: string) => path.join(root, workspaceId);
  const fileOf = (workspaceId: string, deploymentId: string) =>
    path.join(dirOf(workspaceId), `${deploymentId}.json`);

  /** Written beside and renamed into place, so a crash never leaves half a plan. */
  async function writeSealed(file: string, plan: RevisionPlan) {
    const sealed: SealedPlan = { sealed: await deps.vault.encrypt(JSON.stringify(plan)) };
    const partial = `${file}.partial`;
    await writeFile(partial, JSON.stringify(sealed), { mode: 0o600 });
    await rename(partial, file);
  }

  async function load(workspaceId: string, deploymentId: string): Promise<RevisionPlan | undefined> {
    const text = await readFile(fileOf(workspaceId, deploymentId), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const stored = JSON.parse(text) as unknown;
    // A plan written before plans were sealed is read as it is until sealLegacyPlans rewrites it.
    return isSealed(stored)
      ? (JSON.parse(await deps.vault.decrypt(stored.sealed)) as RevisionPlan)
      : (stored as RevisionPlan);
  }

  return {
    async save(workspaceId: string, plan: RevisionPlan) {
      await mkdir(dirOf(workspaceId), { recursive: true, mode: 0o700 });
      await writeSealed(fileOf(workspaceId, plan.deploymentId), plan);
    },

    load,

    /** Whether a version's plan is kept (it can be rolled back to), without opening it. */
    async has(workspaceId: string, deploymentId: string): Promise<boolean> {
      return readFile(fileOf(workspaceId, deploymentId)).then(
        () => true,
        () => false,
      );
    },

    /**
     * Removes the workspace's images except those of these deployments: what each built, and every image name
     * its plan runs (a plan may run an image an older deployment built). Returns how many went.
     */
    async pruneImagesTo(docker: Docker, workspaceId: string, deploymentIds: string[]): Promise<number> {
      const plans = await Promise.all(deploymentIds.map((id) => load(workspaceId, id)));
      const names = plans.flatMap((plan) => Object.values(plan?.imageNames ?? {}));
      return pruneWorkspaceImages(docker, workspaceId, deploymentIds, names);
    },

    /** Keeps the plans of these deployments and removes the workspace's others. */
    async prune(workspaceId: string, keep: string[]) {
      const files = await readdir(dirOf(workspaceId)).catch(() => [] as string[]);
      for (const file of files) {
        if (!keep.includes(file.replace(/\.json$/, ''))) {
          await rm(path.join(dirOf(workspaceId), file), { force: true });
        }
      }
    },

    async removeWorkspace(workspaceId: string) {
      await rm(dirOf(workspaceId), { recursive: true, force: true });
    },

    /**
     * Plans written in the clear before plans were sealed are sealed in place (run at start-up); a leftover
     * `.partial` of an interrupted write goes. Returns how many were sealed.
     */
    async sealLegacyPlans(logger: Logger): Promise<number> {
      let sealed = 0;
      for (const workspaceId of await readdir(root).catch(() => [] as string[])) {
        for (const file of await readdir(dirOf(workspaceId)).catch(() => [] as string[])) {
          const full = path.join(dirOf(workspaceId), file);
          if (file.endsWith('.partial')) {
            await rm(full, { force: true });
            continue;
          }
          try {
            const stored = JSON.parse(await readFile(full, 'utf8')) as unknown;
            if (isSealed(stored)) continue;
            await writeSealed(full, stored as RevisionPlan);
            sealed++;
          } catch (error) {
            logger.warn(
              { err: error, file: full },
              'a revision plan could not be sealed; it was left as it is',
            );
          }
        }
      }
      if (sealed > 0) logger.info({ sealed }, 'revision plans written in the clear were sealed');
      return sealed;
    },
  };
}

export type RevisionPlans = ReturnType<typeof createRevisionPlans>;
