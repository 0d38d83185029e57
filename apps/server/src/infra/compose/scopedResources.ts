import { isObj, type Obj } from './composeMerge.js';
import { refused } from './composeRawPolicy.js';
import type { PolicyViolation } from './policyViolation.js';

/**
 * Top-level networks and volumes belong to the workspace's Compose project (security brief, item 13). Every real
 * name a workspace's networks and volumes get starts with `{project}_` — Compose's own `{project}_{key}`, and a
 * fixed `name:` the author gave (`name: shared` becomes `{project}_shared`) — and the project name holds the
 * workspace's id (conventions.ts), so no other workspace can create, join or mount one of them: two workspaces
 * that both write `name: shared` get two networks. The services still use the key the file gives them.
 * `external: true` reaches a network or volume someone else created and is refused, unless its name is already
 * one of the workspace's own.
 */
type Section = 'networks' | 'volumes';
const ALLOWED_DRIVERS: Record<Section, Set<string>> = {
  networks: new Set(['bridge', 'overlay']),
  volumes: new Set(['local']),
};
/** What a name may hold: Docker's characters for volume names, which also keep a network's name plain. */
const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const NOUN: Record<Section, string> = { networks: 'network', volumes: 'volume' };

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Whether `name` is already one of the names only this workspace's project can have. */
export const isWorkspaceName = (projectName: string, name: string) =>
  name.length > projectName.length + 1 && name.startsWith(`${projectName}_`);

/** The real name of a network or volume the file names `given`: inside the workspace's own names. */
export const workspaceResourceName = (projectName: string, given: string) =>
  isWorkspaceName(projectName, given) ? given : `${projectName}_${given}`;

const isExternal = (item: Obj) => item.external === true || item.external === 'true' || isObj(item.external);

/** The name an external entry refers to: its `name`, v1's `external: {name}`, or else its key, as Compose reads it. */
function externalName(key: string, item: Obj): string {
  if (typeof item.name === 'string') return item.name;
  if (isObj(item.external) && typeof item.external.name === 'string') return item.external.name;
  return key;
}

function checkSection(section: Section, items: Obj, projectName: string): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  const noun = NOUN[section];
  for (const [key, item] of Object.entries(items)) {
    if (!isObj(item)) continue;
    if (isExternal(item)) {
      const name = externalName(key, item);
      if (!isWorkspaceName(projectName, name)) {
        found.push(
          refused(
            null,
            `${section}.${key}.external`,
            'true',
            `is not allowed: the ${noun} '${name}' was not created by this workspace, and a workspace uses only its own networks and volumes (remove external: true and the workspace gets a ${noun} of its own for '${key}')`,
          ),
        );
      }
    } else if (item.name !== undefined && (typeof item.name !== 'string' || !NAME_PATTERN.test(item.name))) {
      found.push(
        refused(
          null,
          `${section}.${key}.name`,
          show(item.name),
          'is not allowed (a name is 1 to 128 letters, digits, dots, dashes and underscores)',
        ),
      );
    }
    if (typeof item.driver === 'string' && !ALLOWED_DRIVERS[section].has(item.driver)) {
      found.push(refused(null, `${section}.${key}.driver`, item.driver));
    }
    // A "named volume" with driver_opts `o: bind, device: /etc` is a host bind mount in disguise.
    if (isObj(item.driver_opts) && Object.keys(item.driver_opts).length > 0) {
      found.push(refused(null, `${section}.${key}.driver_opts`, show(item.driver_opts)));
    }
  }
  return found;
}

/** The rules above, for a normalized config's top-level networks and volumes. */
export function checkScopedResources(config: Obj, projectName: string): PolicyViolation[] {
  return (['networks', 'volumes'] as const).flatMap((section) =>
    checkSection(section, isObj(config[section]) ? config[section] : {}, projectName),
  );
}

/**
 * The config with each fixed `name:` of a network or volume made the workspace's own (checked configs only).
 * The same name gives the same real name on every deployment, so a redeploy finds its volume's data again.
 */
export function scopeResourceNames(config: Obj, projectName: string): Obj {
  const out: Obj = { ...config };
  for (const section of ['networks', 'volumes'] as const) {
    if (!isObj(config[section])) continue;
    out[section] = Object.fromEntries(
      Object.entries(config[section]).map(([key, item]) =>
        isObj(item) && typeof item.name === 'string' && !isExternal(item)
          ? [key, { ...item, name: workspaceResourceName(projectName, item.name) }]
          : [key, item],
      ),
    );
  }
  return out;
}
