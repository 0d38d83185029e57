import path from 'node:path';
import { optionalString } from './envValues.js';

/** The backup settings of the environment (config.ts reads them with the rest; `.env.example` documents them). */
export const backupEnvShape = {
  /** `sftp:user@host:port/path` or `s3:https://endpoint/bucket/prefix`; a directory under DATA_DIR without it. */
  BACKUP_REPOSITORY: optionalString,
  BACKUP_SFTP_IDENTITY_FILE: optionalString,
  BACKUP_SFTP_KNOWN_HOSTS: optionalString,
  BACKUP_S3_ACCESS_KEY_ID: optionalString,
  BACKUP_S3_SECRET_ACCESS_KEY: optionalString,
  BACKUP_S3_REGION: optionalString,
};

type BackupEnv = { [K in keyof typeof backupEnvShape]?: string | undefined };

/**
 * Where every workspace's restic repository lives: each workspace gets its own below this base (a directory,
 * an SFTP path or an S3 prefix named by its id) and its own password. Credentials stay here and reach restic
 * through its environment or a file, never its command line.
 */
export type BackupStore =
  | { kind: 'local'; root: string }
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
      region: string | undefined;
    };

const SFTP = /^sftp:([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):([0-9]{1,5})(\/.*)$/;

/** The backup store, or a sentence naming the variable that is wrong. */
export function backupStoreFrom(env: BackupEnv, dataDir: string): BackupStore | string {
  const value = env.BACKUP_REPOSITORY;
  if (!value) return { kind: 'local', root: path.join(dataDir, 'backups') };
  if (value.startsWith('sftp:')) {
    const match = SFTP.exec(value);
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65535) {
      return 'BACKUP_REPOSITORY: an SFTP repository is written sftp:user@host:port/path, e.g. sftp:backup@192.0.2.10:22/srv/slipway';
    }
    if (!env.BACKUP_SFTP_IDENTITY_FILE || !env.BACKUP_SFTP_KNOWN_HOSTS) {
      return 'BACKUP_SFTP_IDENTITY_FILE, BACKUP_SFTP_KNOWN_HOSTS: are required with an SFTP BACKUP_REPOSITORY (the private key, and the server key to trust)';
    }
    return {
      kind: 'sftp',
      user: match[1]!,
      host: match[2]!.replace(/^\[|\]$/g, ''),
      port,
      path: match[4]!.replace(/\/+$/, '') || '/',
      identityFile: env.BACKUP_SFTP_IDENTITY_FILE,
      knownHostsFile: env.BACKUP_SFTP_KNOWN_HOSTS,
    };
  }
  if (value.startsWith('s3:')) {
    let url: URL;
    try {
      url = new URL(value.slice(3));
    } catch {
      return 'BACKUP_REPOSITORY: an S3 repository is written s3:https://endpoint/bucket/prefix';
    }
    const [bucket, ...prefix] = url.pathname.split('/').filter(Boolean);
    if (!bucket || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      return 'BACKUP_REPOSITORY: an S3 repository is written s3:https://endpoint/bucket/prefix';
    }
    if (!env.BACKUP_S3_ACCESS_KEY_ID || !env.BACKUP_S3_SECRET_ACCESS_KEY) {
      return 'BACKUP_S3_ACCESS_KEY_ID, BACKUP_S3_SECRET_ACCESS_KEY: are required with an S3 BACKUP_REPOSITORY';
    }
    return {
      kind: 's3',
      endpoint: url.origin,
      bucket,
      prefix: prefix.join('/'),
      accessKeyId: env.BACKUP_S3_ACCESS_KEY_ID,
      secretAccessKey: env.BACKUP_S3_SECRET_ACCESS_KEY,
      region: env.BACKUP_S3_REGION,
    };
  }
  return 'BACKUP_REPOSITORY: must start with sftp: or s3: (without it, backups go to a directory under DATA_DIR)';
}
