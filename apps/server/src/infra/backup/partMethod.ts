import type { BackupMethod } from '@slipway/contract';
import type Docker from 'dockerode';
import { countOf } from '../../domain/countOf.js';
import type { PartResult, ResticRepository, ServiceData, Verification, VolumeMount } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { createThrowawayVolume, removeThrowawayVolume, startThrowawayServer } from './throwawayContainers.js';

export interface EngineContext {
  docker: Docker;
  /** Whose throwaway containers and volumes these are (throwawayContainers.ts): this server's data directory's. */
  owner: string;
  /** busybox: reads and writes volumes' files in throwaway containers. */
  helperImage: string;
  /** Where the records of paused and stopped containers are kept until they run again. */
  stateDir: string;
}

/** How one backup method backs up, verifies and restores a service's part. */
export interface PartMethod {
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
  restore(context: EngineContext, repo: ResticRepository, data: ServiceData, part: PartResult): Promise<void>;
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
  { docker, owner }: EngineContext,
  data: ServiceData,
  volume: VolumeMount,
  env: string[],
  work: (containerId: string) => Promise<Verification>,
  options: { cmd?: string[]; prepare?: (scratchVolume: string) => Promise<void> } = {},
): Promise<Verification> {
  const scratch = await createThrowawayVolume({ docker, owner }, 'verify');
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
      return await work(server.id);
    } finally {
      await server.remove();
    }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await removeThrowawayVolume(docker, scratch);
  }
}
