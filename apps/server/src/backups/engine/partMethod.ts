import { posix } from 'node:path';
import type { BackupMethod } from '@slipway/contract';
import type Docker from 'dockerode';
import { countOf } from '../../domain/countOf.js';
import {
  createThrowawayVolume,
  removeThrowawayVolume,
  startThrowawayServer,
} from '../../infra/docker/throwawayContainers.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import type { PartResult, ServiceData, StagedPart, Verification, VolumeMount } from './backupEngine.js';
import { BackupError } from './backupEngine.js';

export interface EngineContext {
  docker: Docker;
  /** Whose throwaway containers and volumes these are (throwawayContainers.ts): this server's data directory's. */
  owner: string;
  /** busybox: reads and writes volumes' files in throwaway containers. */
  helperImage: string;
  /** Where the records of paused and stopped containers are kept until they run again. */
  stateDir: string;
}

/** How one backup method backs up, verifies and stages a service's part, and checks it once live. */
export interface PartMethod {
  /** The part's file inside its snapshot. */
  file(service: string): string;
  backUp(
    context: EngineContext,
    repo: ResticRepository,
    data: ServiceData,
    tags: string[],
  ): Promise<PartResult>;
  verify(
    context: EngineContext,
    repo: ResticRepository,
    data: ServiceData,
    part: PartResult,
  ): Promise<Verification>;
  /** The part read in full into new volumes (labelled with the restore), checked; nothing live touched. */
  stage(
    context: EngineContext,
    repo: ResticRepository,
    data: ServiceData,
    part: PartResult,
    restoreId: string,
  ): Promise<StagedPart>;
  /** The running service (started after the swap) holds what the part recorded. */
  checkLive(context: EngineContext, data: ServiceData, part: PartResult): Promise<Verification>;
}

/** A server's major version: PostgreSQL 10+ by its first number (9.6 by two), MySQL and MariaDB by two. */
export function majorVersion(method: BackupMethod, version: string): string {
  const numbers = /^(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (!numbers) return version.trim();
  const [, major, minor] = numbers;
  if (method === 'postgres' && Number(major) >= 10) return major!;
  return minor === undefined ? major! : `${major}.${minor}`;
}

/**
 * Refuses, before anything is changed, a dump taken from another major version than the running server's:
 * `product` names it in the sentence (`PostgreSQL 15`, `version 10.11`).
 */
export function refuseOtherMajorVersion(
  method: BackupMethod,
  part: PartResult,
  running: string,
  product: (major: string) => string,
): void {
  if (part.fingerprint.kind !== 'tables')
    throw new BackupError(`${part.service}: this part is not a database dump`);
  const [from, to] = [majorVersion(method, part.fingerprint.serverVersion), majorVersion(method, running)];
  if (from === to) return;
  throw new BackupError(
    `The dump of ${part.service} is from ${product(from)} and the running server is ${product(to)}: nothing was changed. Restore it into a ${product(from)} service, or dump and upgrade it by hand.`,
  );
}

/** The volume a database keeps its files in: the one holding `dataDir` when the service says, else the first. */
export function dataVolume(data: ServiceData, dataDir?: string): VolumeMount {
  const holding = dataDir
    ? data.volumes
        .filter(
          (volume) => dataDir === volume.path || dataDir.startsWith(`${volume.path.replace(/\/$/, '')}/`),
        )
        .sort((a, b) => b.path.length - a.path.length)[0]
    : undefined;
  const volume = holding ?? data.volumes[0];
  if (!volume) throw new BackupError(`${data.service} has no named volume`);
  return volume;
}

/** Where `dataDir` is inside the volume mounted at `volume.path` ('' for the volume itself). */
export function pathInVolume(volume: VolumeMount, dataDir: string | undefined): string {
  if (!dataDir) return '';
  const relative = posix.relative(volume.path, dataDir);
  if (relative === '..' || relative.startsWith('../') || posix.isAbsolute(relative)) {
    throw new BackupError(`${dataDir} is not inside the volume mounted at ${volume.path}`);
  }
  return relative;
}

/** Row counts restored against those the backup recorded: every table, exactly. */
export function compareTables(part: PartResult, restored: Record<string, number>): Verification {
  if (part.fingerprint.kind !== 'tables') return { ok: false, reason: 'The backup recorded no table counts' };
  const expected = Object.entries(part.fingerprint.tables);
  for (const [table, rows] of expected) {
    const found = restored[table];
    if (found === undefined) return { ok: false, reason: `Table ${table} is missing after the restore` };
    if (found !== rows) {
      return {
        ok: false,
        reason: `Table ${table} has ${countOf(found, 'row')} after the restore; the backup recorded ${countOf(rows, 'row')}`,
      };
    }
  }
  const rows = expected.reduce((sum, [, count]) => sum + count, 0);
  return { ok: true, checked: `${countOf(expected.length, 'table')}, ${countOf(rows, 'row')}` };
}

/**
 * Runs `work` against a throwaway server of the service's own image on a fresh volume at its data path, and
 * removes both whatever happens. A mismatch or a failure is a `{ok: false}` with the sentence.
 */
export async function withThrowawayServer(
  context: EngineContext,
  data: ServiceData,
  volume: VolumeMount,
  env: string[],
  work: (containerId: string) => Promise<Verification>,
  options: { cmd?: string[]; prepare?: (scratchVolume: string) => Promise<void> } = {},
): Promise<Verification> {
  try {
    const { result, scratch } = await inThrowawayServer(context, data, volume, env, work, options);
    await removeThrowawayVolume(context.docker, scratch);
    return result;
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Loads the part into a throwaway server as `withThrowawayServer` does, and keeps its volume when the check
 * passes: the server is stopped cleanly (its files at rest) and the volume, labelled with the restore, holds
 * the data a swap puts in place of the live data. A failed check is a BackupError (`damaged` when the backup's
 * own bytes were at fault); nothing is kept then.
 */
export async function stageInThrowawayServer(
  context: EngineContext,
  data: ServiceData,
  volume: VolumeMount,
  env: string[],
  load: (containerId: string) => Promise<Verification>,
  restoreId: string,
  options: { cmd?: string[]; prepare?: (scratchVolume: string) => Promise<void> } = {},
): Promise<{ scratch: string; checked: string }> {
  const { result, scratch } = await inThrowawayServer(context, data, volume, env, load, {
    ...options,
    keepFor: restoreId,
  });
  if (!result.ok) {
    await removeThrowawayVolume(context.docker, scratch);
    throw new BackupError(`${data.service}: the backup did not check out when read back: ${result.reason}`);
  }
  return { scratch, checked: result.checked };
}

/** The throwaway server's life: its volume is removed on failure, kept (and the server stopped) on success. */
async function inThrowawayServer<T>(
  { docker, owner }: EngineContext,
  data: ServiceData,
  volume: VolumeMount,
  env: string[],
  work: (containerId: string) => Promise<T>,
  options: { cmd?: string[]; prepare?: (scratchVolume: string) => Promise<void>; keepFor?: string },
): Promise<{ result: T; scratch: string }> {
  const scratch = await createThrowawayVolume(
    { docker, owner },
    options.keepFor ? 'staging' : 'verify',
    options.keepFor,
  );
  try {
    await options.prepare?.(scratch);
    const server = await startThrowawayServer(
      { docker, owner },
      {
        image: data.image,
        volume: scratch,
        dataPath: volume.path,
        env,
        cmd: options.cmd,
        of: data.containerId,
      },
    );
    try {
      const result = await work(server.id);
      // Its files at rest before anything else reads them: the server's own shutdown, as `docker stop` asks.
      if (options.keepFor) await server.stop();
      return { result, scratch };
    } finally {
      await server.remove();
    }
  } catch (error) {
    await removeThrowawayVolume(docker, scratch);
    throw error;
  }
}
