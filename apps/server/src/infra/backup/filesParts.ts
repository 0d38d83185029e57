import type Docker from 'dockerode';
import { countOf } from '../../domain/countOf.js';
import type { PartResult, ResticRepository, ServiceData, Verification } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import type { PartMethod } from './partMethod.js';
import { whileHeld } from './servicesHeld.js';
import { backUpOutput, restoreInto } from './streamedPart.js';
import { memberPath, type TarEntry, TarLister, volumeEntryGuard } from './tarListing.js';
import {
  createThrowawayVolume,
  removeThrowawayVolume,
  runInThrowaway,
  type VolumeBinding,
} from './throwawayContainers.js';

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

/** Reads the whole archive once through the guard, writing nothing: a bad member refuses the restore. */
async function checkArchive(repo: ResticRepository, part: PartResult, data: ServiceData): Promise<void> {
  const read = repo.dumpStream(part.snapshotId, archiveFile(part.service));
  const lister = fileLister({}, archiveGuard(data));
  const listed = new Promise<void>((resolve, reject) => {
    lister.on('error', reject);
    lister.on('finish', resolve);
  });
  read.stdout.pipe(lister).resume();
  try {
    await listed;
  } catch (error) {
    read.kill();
    await read.done.catch(() => {});
    throw error;
  }
  await read.done;
}

export const filesParts: PartMethod = {
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

  async verify({ docker, owner, helperImage }, repo, _data, part) {
    await repo.check();
    const scratch = await createThrowawayVolume({ docker, owner }, 'verify');
    try {
      const restored: Record<string, number> = {};
      await restoreInto(
        repo,
        part.snapshotId,
        archiveFile(part.service),
        (input) =>
          runInThrowaway(
            { docker, owner },
            {
              image: helperImage,
              cmd: ['tar', '-x', '-C', ROOT],
              volumes: [{ volume: scratch, path: ROOT }],
              stdin: input.pipe(fileLister(restored)),
            },
          ),
        `Restoring ${part.service}'s files into a throwaway volume`,
      );
      return compareFiles(part, restored);
    } finally {
      await removeThrowawayVolume(docker, scratch);
    }
  },

  async restore({ docker, owner, helperImage }, repo, data, part) {
    const missing = part.volumes.filter(
      (volume) => !data.volumes.some((mounted) => mounted.volume === volume),
    );
    if (missing.length)
      throw new BackupError(`${part.service} no longer mounts ${missing.join(', ')}: nothing was restored`);
    await checkArchive(repo, part, data);
    const volumes = bindings(data, false);
    for (const binding of volumes) {
      const emptying = await runInThrowaway(
        { docker, owner },
        {
          image: helperImage,
          cmd: ['find', binding.path, '-mindepth', '1', '-maxdepth', '1', '-exec', 'rm', '-rf', '{}', '+'],
          volumes,
        },
      );
      emptying.stdout.resume();
      await emptying.finished;
    }
    await restoreInto(
      repo,
      part.snapshotId,
      archiveFile(part.service),
      (input) =>
        runInThrowaway(
          { docker, owner },
          {
            image: helperImage,
            cmd: ['tar', '-x', '-C', ROOT],
            volumes,
            // Checked again on the way in: the bytes are the same, and a guard costs nothing.
            stdin: input.pipe(fileLister({}, archiveGuard(data))),
          },
        ),
      `Restoring ${part.service}'s files`,
    );
  },
};
