import type { BackupMethod } from '@slipway/contract';
import type { RestorePlan } from '../../infra/db/backupTables.js';
import { ResticError } from '../../infra/restic/resticErrors.js';
import type { RepositoryLocation, ResticRepository } from '../../infra/restic/resticRepository.js';

/**
 * The backup engine's surface: what the backups module (apps/server/src/backups/) calls. Everything here
 * works on the local Docker Engine and restic; nothing here knows about workspaces' rows, schedules or alerts.
 *
 * (Written first as the agreement between the engine and the module; the engine's files implement it.)
 */

/** A named volume as a service mounts it. */
export interface VolumeMount {
  /** The Compose file's name for it (`pgdata`). */
  volume: string;
  /** The engine's name for it (`{project}_pgdata`). */
  dockerVolume: string;
  /** Where the service mounts it. */
  path: string;
}

/** One running service that keeps data in named volumes, and how it is backed up. */
export interface ServiceData {
  service: string;
  containerId: string;
  image: string;
  /** Its own dump for a database recognised by image and settings; `files` for anything else. */
  method: BackupMethod;
  volumes: VolumeMount[];
  /** `dev.slipway.backup: stop`: stopped and started again around a files copy instead of paused. */
  stopForCopy: boolean;
  /** The environment the dump needs (e.g. POSTGRES_USER, MYSQL_ROOT_PASSWORD), read from the container. */
  credentials: Record<string, string>;
}

/** What a backup recorded about the data, so its verification can compare. */
export type DataFingerprint =
  | { kind: 'tables'; serverVersion: string; tables: Record<string, number> }
  | { kind: 'keys'; keys: number }
  | { kind: 'files'; files: Record<string, number> };

export interface PartResult {
  service: string;
  method: BackupMethod;
  volumes: string[];
  snapshotId: string;
  sizeBytes: number;
  addedBytes: number;
  fingerprint: DataFingerprint;
  /** SHA-256 of the bytes restic stored; a read-back must give the same (absent on parts written before it). */
  sha256?: string;
}

export type Verification = { ok: true; checked: string } | { ok: false; reason: string };

/**
 * A failure an operator can act on: `message` is the sentence shown on the backup's or restore's row. `damaged`:
 * the backup's own data could not be read back as it was stored (a restore refuses it and marks it Damaged).
 */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly damaged = false,
  ) {
    super(message);
  }
}

/** A sentence from the engine or from restic as a BackupError; anything else is not one (undefined). */
export function asBackupError(error: unknown): BackupError | undefined {
  if (error instanceof BackupError) return error;
  if (error instanceof ResticError) return new BackupError(error.message, error.damaged);
  return undefined;
}

/**
 * One place in a live volume a restore replaces, and the staged data that replaces it: kept on the restore's row,
 * so that a crash at any point can be finished or undone (volumeSwap.ts).
 */
export type SwapUnit = RestorePlan['staged'][number]['units'][number];

/** A part read from its backup in full into volumes of its own, and checked: nothing live was touched. */
export type StagedPart = RestorePlan['staged'][number];

export interface BackupEngine {
  openRepository(location: RepositoryLocation, password: string): ResticRepository;
  /** The running project's services that keep data in named volumes, each with its method. */
  describeProjectData(projectName: string): Promise<ServiceData[]>;
  /** Dump (database, no downtime) or copy (files: pause or stop around the copy, always lifted) one service. */
  backUpService(repo: ResticRepository, data: ServiceData, tags: string[]): Promise<PartResult>;
  /** Restores the part into a throwaway container and volume (same image for a database), compares, removes them. */
  verifyPart(repo: ResticRepository, data: ServiceData, part: PartResult): Promise<Verification>;
  /** Reads the part back in full: restic authenticates every block, and the bytes must be those stored. */
  readBack(repo: ResticRepository, part: PartResult): Promise<Verification>;
  /**
   * Reads the part in full into new volumes labelled with `restoreId` (a database loaded into a throwaway server
   * of the service's own image, files unpacked), checks it against what the backup recorded, and answers where
   * the data is and what it replaces. Nothing live is touched. A backup whose data cannot be read back as stored
   * is a BackupError marked `damaged`; another major version, or an archive reaching outside its volume, is
   * refused with a BackupError.
   */
  stagePart(
    repo: ResticRepository,
    data: ServiceData,
    part: PartResult,
    restoreId: string,
  ): Promise<StagedPart>;
  /** Puts staged data in place of the live data; the caller has stopped every container mounting it. Idempotent. */
  swapIn(units: SwapUnit[]): Promise<void>;
  /** Puts the live data back as it was before `swapIn` (nothing to do if it never ran). Idempotent. */
  swapBack(units: SwapUnit[]): Promise<void>;
  /** Removes every volume the restore made (staged data, the live data it held) once it is finished or undone. */
  discardRestore(restoreId: string): Promise<void>;
  /** The restore ids whose volumes are on the engine (crash leftovers are found by them). */
  restoresWithVolumes(): Promise<string[]>;
  /** After the swap and start: the live service holds what the part recorded (its rows, keys or files). */
  checkLive(data: ServiceData, part: PartResult): Promise<Verification>;
  /**
   * At start: unpause (and start again) whatever a backup interrupted by a crash left paused or stopped, stop
   * the restic processes it left running, and remove its throwaway containers and volumes (never a restore's).
   */
  resumeInterrupted(): Promise<string[]>;
}
