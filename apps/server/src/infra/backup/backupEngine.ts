import type { Readable } from 'node:stream';
import type { BackupMethod } from '@slipway/contract';

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

/** Where a workspace's restic repository lives. Credentials are passed to restic by environment or file, never argv. */
export type RepositoryLocation =
  | { kind: 'local'; path: string }
  | {
      kind: 'sftp';
      user: string;
      host: string;
      port: number;
      path: string;
      identityFile: string;
      knownHostsFile: string;
    }
  | {
      kind: 's3';
      endpoint: string;
      bucket: string;
      prefix: string;
      accessKeyId: string;
      secretAccessKey: string;
      region?: string;
    };

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
}

export type Verification = { ok: true; checked: string } | { ok: false; reason: string };

/** A failure an operator can act on: `message` is the sentence shown on the backup's or restore's row. */
export class BackupError extends Error {}

/** What `restic backup --stdin` reported. */
export interface StreamBackup {
  snapshotId: string;
  sizeBytes: number;
  addedBytes: number;
}

/** A file read back out of a snapshot (`restic dump`): its bytes, and the command's end. */
export interface SnapshotRead {
  stdout: Readable;
  /** Rejects with a BackupError sentence when restic failed. */
  done: Promise<unknown>;
  kill(): void;
}

export interface ResticRepository {
  /** `restic init` when the repository does not exist yet; a wrong password is a BackupError saying so. */
  ensureInitialised(): Promise<void>;
  /** `restic check` (with `--read-data-subset` for a sample); tampering is a BackupError. */
  check(): Promise<void>;
  /** Keep the last `daily` daily and `weekly` weekly snapshots of these tags, and always the `keep` ids. */
  forget(tags: string[], policy: { daily: number; weekly: number; keep: string[] }): Promise<void>;
  /** Removes snapshots (a failed or cancelled backup's parts). */
  removeSnapshots(ids: string[]): Promise<void>;
  /** (Engine's use.) One stream as one file `filename` of a new snapshot; `input`'s error stops restic first. */
  backupStream(input: Readable, filename: string, tags: string[]): Promise<StreamBackup>;
  /** (Engine's use.) That file's bytes back. */
  dumpStream(snapshotId: string, filename: string): SnapshotRead;
}

export interface BackupEngine {
  openRepository(location: RepositoryLocation, password: string): ResticRepository;
  /** The running project's services that keep data in named volumes, each with its method. */
  describeProjectData(projectName: string): Promise<ServiceData[]>;
  /** Dump (database, no downtime) or copy (files: pause or stop around the copy, always lifted) one service. */
  backUpService(repo: ResticRepository, data: ServiceData, tags: string[]): Promise<PartResult>;
  /** Restores the part into a throwaway container and volume (same image for a database), compares, removes them. */
  verifyPart(repo: ResticRepository, data: ServiceData, part: PartResult): Promise<Verification>;
  /**
   * Puts the part back into the service's volume (files) or loads the dump (database). The caller stops the
   * services first for files and starts them after. Refuses a dump of another database major version and an
   * archive with paths outside its volume, with a BackupError, before anything is overwritten.
   */
  restorePart(repo: ResticRepository, data: ServiceData, part: PartResult): Promise<void>;
  /** At start: unpause (and start again) whatever a backup interrupted by a crash left paused or stopped. */
  resumeInterrupted(): Promise<string[]>;
}
