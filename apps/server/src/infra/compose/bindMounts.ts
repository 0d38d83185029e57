import { cp, lstat, mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { isInside, JailError, openRepositoryJail, type RepositoryJail } from '../jail/repositoryJail.js';
import { isObj, type Obj } from './composeMerge.js';
import { repositoryPath } from './composeRawPolicy.js';

/**
 * Where a workspace's bind mounts come from (the sandbox rule is in docs/SECURITY.md). The policy has already
 * allowed only sources inside the repository; here they are placed outside the checkout, which goes when the
 * deployment ends:
 * - read-only mounts (`:ro`, `read_only: true`, configs and secrets) are copied from the deployed revision to
 *   `{DATA_DIR}/volumes/{workspace}/revisions/{deployment}/{path}`;
 * - writable mounts live in `{DATA_DIR}/volumes/{workspace}/data/{path}`, seeded from the repository the first
 *   time and kept across redeploys, removed only with the workspace (removeWorkspaceMounts).
 * Links are never copied as links (a link that stays inside the repository is copied as what it points to), so
 * the host paths Docker mounts hold no link out; a writable directory a container filled with links is checked
 * again before each mount.
 */
export const workspaceMountsDir = (dataDir: string, workspaceId: string) =>
  path.join(dataDir, 'volumes', workspaceId);

export async function removeWorkspaceMounts(dataDir: string, workspaceId: string) {
  await rm(workspaceMountsDir(dataDir, workspaceId), { recursive: true, force: true });
}

interface Placement {
  jail: RepositoryJail;
  revisionDir: string;
  dataDir: string;
}

async function exists(file: string) {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

/** Copies `source` (a real path inside the repository) to `dest`, following only links that stay inside. */
async function copyFromRepository(jail: RepositoryJail, source: string, dest: string) {
  await mkdir(path.dirname(dest), { recursive: true });
  await cp(source, dest, {
    recursive: true,
    dereference: true,
    filter: async (entry) => {
      if (!(await lstat(entry)).isSymbolicLink()) return true;
      try {
        jail.resolve(entry);
        return true;
      } catch (error) {
        if (error instanceof JailError) return false;
        throw error;
      }
    },
  });
}

/** The host path to mount for a repository path (absolute, as the policy checked it). */
async function place(p: Placement, service: string, source: string, readOnly: boolean): Promise<string> {
  let real: string | undefined;
  try {
    real = p.jail.resolve(source);
  } catch (error) {
    if (!(error instanceof JailError) || error.reason !== 'missing') throw error;
  }
  const relative = path.relative(p.jail.root, real ?? source);
  if (!isInside(p.jail.root, path.join(p.jail.root, relative))) {
    throw new Error(
      `Service '${service}' mounts ${repositoryPath(p.jail.root, source)}, which is outside the repository`,
    );
  }
  const base = readOnly ? p.revisionDir : p.dataDir;
  const dest = path.join(base, relative);
  if (!(await exists(dest))) {
    if (real !== undefined) await copyFromRepository(p.jail, real, dest);
    else await mkdir(dest, { recursive: true });
  }
  // A container may have left links in its writable directory: what Docker mounts must still be inside.
  const placed = await realpath(dest);
  if (!isInside(await realpath(base), placed)) {
    throw new Error(`Service '${service}' mounts ./${relative}, which leads outside the workspace's storage`);
  }
  return placed;
}

const isReadOnly = (entry: unknown) =>
  isObj(entry)
    ? entry.read_only === true || entry.read_only === 'true'
    : (String(entry).split(':')[2] ?? '').split(',').includes('ro');

/** Service `secrets:`/`configs:` entries become read-only bind mounts of their files. */
function referencesAsMounts(config: Obj, service: Obj): Obj[] {
  const mounts: Obj[] = [];
  for (const section of ['secrets', 'configs'] as const) {
    const defined = isObj(config[section]) ? config[section] : {};
    for (const entry of Array.isArray(service[section]) ? service[section] : []) {
      const name = isObj(entry) ? String(entry.source) : String(entry);
      const item = defined[name];
      if (!isObj(item) || typeof item.file !== 'string') continue;
      const given = isObj(entry) && typeof entry.target === 'string' ? entry.target : name;
      const target = given.startsWith('/')
        ? given
        : section === 'secrets'
          ? `/run/secrets/${given}`
          : `/${given}`;
      mounts.push({ type: 'bind', source: item.file, target, read_only: true });
    }
    delete service[section];
  }
  return mounts;
}

/** The config with every bind source replaced by its placed host path (files copied as they go). */
export async function placeBindMounts(
  config: Obj,
  options: { repoDir: string; dataDir: string; workspaceId: string; deploymentId: string },
): Promise<Obj> {
  const store = workspaceMountsDir(options.dataDir, options.workspaceId);
  const p: Placement = {
    jail: openRepositoryJail(options.repoDir),
    revisionDir: path.join(store, 'revisions', options.deploymentId),
    dataDir: path.join(store, 'data'),
  };
  await mkdir(p.revisionDir, { recursive: true, mode: 0o755 });
  await mkdir(p.dataDir, { recursive: true, mode: 0o755 });
  const services: Obj = {};
  for (const [name, raw] of Object.entries(isObj(config.services) ? config.services : {})) {
    const service: Obj = { ...(isObj(raw) ? raw : {}) };
    const entries = [
      ...(Array.isArray(service.volumes) ? service.volumes : []),
      ...referencesAsMounts(config, service),
    ];
    const volumes: unknown[] = [];
    for (const entry of entries) {
      const parts = typeof entry === 'string' ? entry.split(':') : [];
      const source = isObj(entry)
        ? entry.type === 'bind'
          ? entry.source
          : undefined
        : parts.length > 1
          ? parts[0]
          : undefined;
      if (typeof source !== 'string' || !source.startsWith('/')) {
        volumes.push(entry);
        continue;
      }
      const placed = await place(p, name, source, isReadOnly(entry));
      volumes.push(isObj(entry) ? { ...entry, source: placed } : [placed, ...parts.slice(1)].join(':'));
    }
    if (volumes.length > 0) service.volumes = volumes;
    services[name] = service;
  }
  const { secrets: _secrets, configs: _configs, ...rest } = config;
  return { ...rest, services };
}
