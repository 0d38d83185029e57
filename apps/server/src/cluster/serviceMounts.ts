import { readdirSync } from 'node:fs';
import path from 'node:path';
import { isObj, type Obj } from '../infra/compose/composeMerge.js';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import { workspaceResourceName } from '../infra/compose/scopedResources.js';
import type { SwarmMount } from '../infra/swarm/swarmServiceSpec.js';
import { byteSize } from './composeValues.js';
import type { PlannedFile } from './swarmPlan.js';

/** The most files a read-only directory mount may hold (each becomes a Swarm config). */
export const MAX_DIRECTORY_FILES = 64;

/**
 * The files under a directory of the checkout, relative to it, or undefined past MAX_DIRECTORY_FILES. Linked
 * directories are not entered; a linked file is listed, and read through the repository jail when the plan is
 * applied (which refuses one pointing outside the checkout).
 */
function filesUnder(dir: string): string[] | undefined {
  const found: string[] = [];
  const walk = (relative: string): boolean => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!walk(child)) return false;
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        found.push(child);
        if (found.length > MAX_DIRECTORY_FILES) return false;
      }
    }
    return true;
  };
  return walk('') ? found.sort() : undefined;
}

/** A volume entry in one shape: Compose's short `src:dst[:mode]` or its long form. */
interface MountEntry {
  type: string;
  source: string;
  target: string;
  readOnly: boolean;
  tmpfsSize?: number;
}

function entryOf(entry: unknown): MountEntry {
  if (isObj(entry)) {
    const tmpfs = isObj(entry.tmpfs) ? byteSize(entry.tmpfs.size) : undefined;
    return {
      type: String(entry.type ?? 'volume'),
      source: typeof entry.source === 'string' ? entry.source : '',
      target: String(entry.target ?? ''),
      readOnly: entry.read_only === true,
      ...(tmpfs !== undefined ? { tmpfsSize: tmpfs } : {}),
    };
  }
  const parts = String(entry).split(':');
  if (parts.length === 1) return { type: 'volume', source: '', target: parts[0]!, readOnly: false };
  const [source = '', target = '', mode = ''] = parts;
  const bind = source.startsWith('/') || source.startsWith('.') || source.startsWith('~');
  return { type: bind ? 'bind' : 'volume', source, target, readOnly: mode.split(',').includes('ro') };
}

export interface ServiceMounts {
  mounts: SwarmMount[];
  files: PlannedFile[];
  /** The real names of the named volumes it mounts: a service with one is pinned to one node. */
  namedVolumes: string[];
}

/**
 * A service's `volumes` and `tmpfs` on Swarm. Named volumes are the workspace's own (the names Compose gives them
 * on one VM, so data keeps its name); a read-only bind mount of a file of the checkout becomes a Swarm config, and of a
 * directory one config per file (the checkout is on the control plane, not on the nodes); a writable bind mount is refused: its data would live on
 * one node's disk outside any volume Slipway backs up and moves.
 */
export function serviceMounts(
  name: string,
  service: Obj,
  context: {
    projectName: string;
    filePrefix: (given: string) => string;
    repoDir: string;
    volumes: Obj;
    pathKind: (file: string) => 'file' | 'directory' | 'missing';
    violations: PolicyViolation[];
  },
): ServiceMounts {
  const out: ServiceMounts = { mounts: [], files: [], namedVolumes: [] };
  const refuse = (shown: string, why: string) =>
    context.violations.push({
      service: name,
      key: 'volumes',
      message: `Service '${name}' uses volumes: ${shown}, which a cluster cannot honour: ${why}`,
    });
  for (const raw of Array.isArray(service.volumes) ? service.volumes : []) {
    const entry = entryOf(raw);
    if (entry.type === 'tmpfs') {
      out.mounts.push({
        Type: 'tmpfs',
        Source: '',
        Target: entry.target,
        ...(entry.tmpfsSize !== undefined ? { TmpfsOptions: { SizeBytes: entry.tmpfsSize } } : {}),
      });
    } else if (entry.type === 'volume' && entry.source === '') {
      out.mounts.push({ Type: 'volume', Source: '', Target: entry.target, ReadOnly: entry.readOnly });
    } else if (entry.type === 'volume') {
      const declared = isObj(context.volumes[entry.source]) ? (context.volumes[entry.source] as Obj) : {};
      const given = typeof declared.name === 'string' ? declared.name : entry.source;
      const real = workspaceResourceName(context.projectName, given);
      const driverOptions = isObj(declared.driver_opts)
        ? Object.fromEntries(Object.entries(declared.driver_opts).map(([k, v]) => [k, String(v)]))
        : undefined;
      out.namedVolumes.push(real);
      out.mounts.push({
        Type: 'volume',
        Source: real,
        Target: entry.target,
        ReadOnly: entry.readOnly,
        ...(driverOptions
          ? { VolumeOptions: { DriverConfig: { Name: 'local', Options: driverOptions } } }
          : {}),
      });
    } else if (entry.type === 'bind') {
      const shown = `./${path.relative(context.repoDir, entry.source)}:${entry.target}`;
      const kind = context.pathKind(entry.source);
      if (!entry.readOnly) {
        refuse(shown, 'a writable bind mount keeps its data on one node (use a named volume)');
      } else if (kind === 'missing') {
        refuse(shown, 'the repository has no such file or directory');
      } else {
        const sources = kind === 'file' ? [''] : filesUnder(entry.source);
        if (!sources) {
          refuse(
            shown,
            `a read-only directory is mounted as one config per file, at most ${MAX_DIRECTORY_FILES}`,
          );
          continue;
        }
        for (const relative of sources) {
          out.files.push({
            kind: 'config',
            source: relative ? path.join(entry.source, relative) : entry.source,
            prefix: context.filePrefix(`${name}-bind`),
            target: relative
              ? path.posix.join(entry.target, relative.split(path.sep).join('/'))
              : entry.target,
            uid: '0',
            gid: '0',
            mode: 0o444,
          });
        }
      }
    } else {
      refuse(String(entry.type), `a mount of type ${entry.type} has no Swarm equivalent`);
    }
  }
  const tmpfs = typeof service.tmpfs === 'string' ? [service.tmpfs] : service.tmpfs;
  for (const item of Array.isArray(tmpfs) ? tmpfs : []) {
    const [target = '', options = ''] = String(item).split(':');
    const size = /(?:^|,)size=([^,]+)/.exec(options)?.[1];
    const bytes = size !== undefined ? byteSize(size) : undefined;
    out.mounts.push({
      Type: 'tmpfs',
      Source: '',
      Target: target,
      ...(bytes !== undefined ? { TmpfsOptions: { SizeBytes: bytes } } : {}),
    });
  }
  const shm = byteSize(service.shm_size);
  if (shm !== undefined) {
    // Swarm has no shm size; a tmpfs of that size on /dev/shm is what the setting gives a container.
    out.mounts.push({ Type: 'tmpfs', Source: '', Target: '/dev/shm', TmpfsOptions: { SizeBytes: shm } });
  }
  return out;
}
