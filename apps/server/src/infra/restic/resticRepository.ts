import type { Readable } from 'node:stream';

/** Where a restic repository lives. Credentials reach restic by its environment or a file descriptor, never argv. */
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

/** What `restic backup --stdin` reported. */
export interface StreamBackup {
  snapshotId: string;
  sizeBytes: number;
  addedBytes: number;
}

/** A file read back out of a snapshot (`restic dump`): its bytes, and the command's end. */
export interface SnapshotRead {
  stdout: Readable;
  /** Rejects with a ResticError sentence when restic failed. */
  done: Promise<unknown>;
  kill(): void;
}

export interface ResticSnapshot {
  id: string;
  time: string;
  tags: string[];
}

/** One restic repository: what the backups call. Every failure is a ResticError sentence. */
export interface ResticRepository {
  /** `restic init` when the repository does not exist yet; a wrong password is a sentence saying so. */
  ensureInitialised(): Promise<void>;
  /**
   * `restic check`: the structure (every pack the index names is there), and with `readData` the contents of
   * that share of the packs (`n/m`, restic's --read-data-subset). Damage is a ResticError marked `damaged`.
   */
  check(readData?: string): Promise<void>;
  /** Keep the last `daily` daily and `weekly` weekly snapshots of these tags, and always the `keep` ids. */
  forget(tags: string[], policy: { daily: number; weekly: number; keep: string[] }): Promise<void>;
  /** The snapshots holding every one of `tags` (all of them without tags), oldest first. */
  listSnapshots(tags?: string[]): Promise<ResticSnapshot[]>;
  /** Removes snapshots and the data only they held. */
  removeSnapshots(ids: string[]): Promise<void>;
  /** Removes the locks restic itself calls stale (their process is gone, or they are 30 minutes old). */
  unlockStale(): Promise<void>;
  /** The ids of the locks in the repository. */
  listLocks(): Promise<string[]>;
  /** One stream as one file `filename` of a new snapshot; `input`'s error stops restic first. */
  backupStream(input: Readable, filename: string, tags: string[]): Promise<StreamBackup>;
  /** That file's bytes back (restic authenticates every block it reads). */
  dumpStream(snapshotId: string, filename: string): SnapshotRead;
}
