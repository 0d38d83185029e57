import type Docker from 'dockerode';
import { countOf } from '../../domain/countOf.js';
import {
  createThrowawayVolume,
  removeThrowawayVolume,
  runInThrowaway,
  type ThrowawayOwner,
  type VolumeBinding,
} from '../../infra/docker/throwawayContainers.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import type { PartResult, ServiceData, Verification } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import type { EngineContext, PartMethod } from './partMethod.js';
import { whileHeld } from './servicesHeld.js';
import { backUpOutput, restoreInto } from './streamedPart.js';
import { memberPath, type TarEntry, TarLister, volumeEntryGuard } from './tarListing.js';
import { swapUnit } from './volumeSwap.js';

/**
 * A files part is one tar of all the service's volumes, each under its Compose name (`uploads/…`), read by a
 * throwaway busybox container that mounts them read-only and streamed into restic: it works on any engine
 * Slipway reaches (a VM's socket is tunnelled, so the volume's directory on that host is not ours to read),
 * and nothing is copied to disk on the way.
 */
const ROOT = '/volumes';
const archiveFile = (service: string) => `${service}.tar`;
const bindings = (data: ServiceData, readOnly: boolean): VolumeBinding[] =>
  data.volumes.map((volume) => ({ volume: volume.dockerVolume, path: `${ROOT}/${volume.volume}`, readOnly }));

/** Regular files and their sizes, keyed `{volume}/{path}`. */
function fileLister(files: Record<string, number>, check?: (entry: TarEntry) => void): TarLister {
  return new TarLister((entry) => {
    check?.(entry);
    if (entry.type === '0' || entry.type === '7') files[memberPath(entry.path)] = entry.size;
  });
}

/** The running containers of any project that mount one of these volumes: all of them must hold still. */
async function containersMounting(docker: Docker, data: ServiceData): Promise<string[]> {
  const ids = new Set<string>([data.containerId]);
  for (const volume of data.volumes) {
    const users = await docker.listContainers({
      filters: { volume: [volume.dockerVolume], status: ['running'] },
    });
    for (const user of users) ids.add(user.Id);
  }
  return [...ids];
}

/** Refuses a member outside the part's volumes; inside one, the volume's own guard (links, `..`, devices). */
function archiveGuard(data: ServiceData): (entry: TarEntry) => void {
  const guards = new Map(data.volumes.map((volume) => [volume.volume, volumeEntryGuard(volume.path)]));
  const outside = volumeEntryGuard(ROOT);
  return (entry) => {
    outside(entry);
    const path = memberPath(entry.path);
    if (path === '') return;
    const [volume, ...rest] = path.split('/');
    const guard = guards.get(volume!);
    if (!guard) {
      throw new BackupError(
        `The archive holds a path outside its volumes, so nothing was restored: ${JSON.stringify(entry.path)}`,
      );
    }
    if (rest.length === 0 && entry.type !== '5') {
      throw new BackupError(
        `The archive's ${JSON.stringify(entry.path)} is not a directory, so nothing was restored`,
      );
    }
    if (rest.length > 0) guard({ ...entry, path: rest.join('/') });
  };
}

function compareFiles(part: PartResult, restored: Record<string, number>): Verification {
  if (part.fingerprint.kind !== 'files') return { ok: false, reason: 'The backup recorded no file list' };
  const recorded = part.fingerprint.files;
  const expected = Object.entries(recorded);
  for (const [path, size] of expected) {
    const found = restored[path];
    if (found === undefined)
      return { ok: false, reason: `File ${path} is missing from the restored archive` };
    if (found !== size) {
      return {
        ok: false,
        reason: `File ${path} has ${countOf(found, 'byte')} restored; the backup recorded ${countOf(size, 'byte')}`,
      };
    }
  }
  const extra = Object.keys(restored).find((path) => !(path in recorded));
  if (extra)
    return { ok: false, reason: `File ${extra} is in the restored archive but not in the backup's list` };
  const bytes = expected.reduce((sum, [, size]) => sum + size, 0);
  return { ok: true, checked: `${countOf(expected.length, 'file')}, ${countOf(bytes, 'byte')}` };
}

/**
 * Unpacks the part's archive into `scratch` (each volume under its Compose name), through the guard (a member
 * outside its volume refuses it) and the file lister; answers the file list the archive held.
 */
async function unpackInto(
  owner: ThrowawayOwner & { helperImage: string },
  repo: ResticRepository,
  part: PartResult,
  scratch: string,
  guard?: (entry: TarEntry) => void,
): Promise<Record<string, number>> {
  const restored: Record<string, number> = {};
  await restoreInto(
    repo,
    part.snapshotId,
    archiveFile(part.service),
    (input) =>
      runInThrowaway(owner, {
        image: owner.helperImage,
        cmd: ['tar', '-x', '-C', ROOT],
        volumes: [{ volume: scratch, path: ROOT }],
        stdin: input.pipe(fileLister(restored, guard)),
      }),
    `Restoring ${part.service}'s files`,
    part.sha256,
  );
  return restored;
}

/** The files of the volumes as they are now (read by a throwaway that mounts them read-only). */
async function liveFiles(context: EngineContext, data: ServiceData): Promise<Record<string, number>> {
  const files: Record<string, number> = {};
  const tar = await runInThrowaway(context, {
    image: context.helperImage,
    cmd: ['tar', '-c', '-C', ROOT, '.'],
    volumes: bindings(data, true),
  });
  const lister = fileLister(files);
  const listed = new Promise<void>((resolve, reject) => {
    lister.on('error', reject);
    lister.on('finish', resolve);
  });
  tar.stdout.pipe(lister).resume();
  await Promise.all([listed, tar.finished]);
  return files;
}

export const filesParts: PartMethod = {
  file: archiveFile,

  async backUp({ docker, owner, helperImage, stateDir }, repo, data, tags) {
    const files: Record<string, number> = {};
    const holders = await containersMounting(docker, data);
    const stored = await whileHeld(
      docker,
      stateDir,
      data.stopForCopy ? 'stop' : 'pause',
      holders,
      async () => {
        const tar = await runInThrowaway(
          { docker, owner },
          {
            image: helperImage,
            cmd: ['tar', '-c', '-C', ROOT, '.'],
            volumes: bindings(data, true),
          },
        );
        return backUpOutput(
          repo,
          tar,
          [fileLister(files)],
          `Copying ${data.service}'s files`,
          archiveFile(data.service),
          tags,
        );
      },
    );
    return {
      service: data.service,
      method: 'files',
      volumes: data.volumes.map((volume) => volume.volume),
      ...stored,
      fingerprint: { kind: 'files', files },
    };
  },

  async verify(context, repo, _data, part) {
    const scratch = await createThrowawayVolume(context, 'verify');
    try {
      return compareFiles(part, await unpackInto(context, repo, part, scratch));
    } finally {
      await removeThrowawayVolume(context.docker, scratch);
    }
  },

  /**
   * The archive unpacked into a new volume (a directory per volume) through the guard, and its files compared
   * with the backup's list; each volume's directory then replaces the live volume's contents in the swap.
   */
  async stage(context, repo, data, part, restoreId) {
    const missing = part.volumes.filter(
      (volume) => !data.volumes.some((mounted) => mounted.volume === volume),
    );
    if (missing.length)
      throw new BackupError(`${part.service} no longer mounts ${missing.join(', ')}: nothing was restored`);
    const scratch = await createThrowawayVolume(context, 'staging', restoreId);
    try {
      const check = compareFiles(part, await unpackInto(context, repo, part, scratch, archiveGuard(data)));
      if (!check.ok) {
        throw new BackupError(
          `${part.service}: the backup did not check out when read back: ${check.reason}`,
        );
      }
      const units = [];
      for (const volume of data.volumes.filter((mounted) => part.volumes.includes(mounted.volume))) {
        units.push(
          await swapUnit(context, restoreId, {
            live: volume.dockerVolume,
            livePath: '',
            staging: scratch,
            stagingPath: volume.volume,
            keep: [],
          }),
        );
      }
      return { service: part.service, checked: check.checked, units };
    } catch (error) {
      await removeThrowawayVolume(context.docker, scratch);
      throw error;
    }
  },

  async checkLive(context, data, part) {
    const live = await liveFiles(context, {
      ...data,
      volumes: data.volumes.filter((mounted) => part.volumes.includes(mounted.volume)),
    });
    return compareFiles(part, live);
  },
};
