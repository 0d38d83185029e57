import path from 'node:path';
import type { BackupStore } from '../config/backupConfig.js';
import type { RepositoryLocation } from '../infra/restic/resticRepository.js';

/**
 * A workspace's own repository below the configured store: a directory, SFTP path or S3 prefix named by its id;
 * with `sub`, a repository of its own beside it (`{id}.{sub}`: a restore's safety backup, `safety/{restore}`).
 */
export function locationFor(store: BackupStore, workspaceId: string, sub?: string): RepositoryLocation {
  const name = sub ? `${workspaceId}.${sub}` : workspaceId;
  switch (store.kind) {
    case 'local':
      return { kind: 'local', path: path.join(store.root, name) };
    case 'sftp':
      return {
        kind: 'sftp',
        user: store.user,
        host: store.host,
        port: store.port,
        path: path.posix.join(store.path, name),
        identityFile: store.identityFile,
        knownHostsFile: store.knownHostsFile,
      };
    case 's3':
      return {
        kind: 's3',
        endpoint: store.endpoint,
        bucket: store.bucket,
        prefix: store.prefix ? `${store.prefix}/${name}` : name,
        accessKeyId: store.accessKeyId,
        secretAccessKey: store.secretAccessKey,
        ...(store.region ? { region: store.region } : {}),
      };
  }
}

/** Where the repository lives, in words for the settings screen: never a credential. */
export function describeStore(store: BackupStore): string {
  switch (store.kind) {
    case 'local':
      return 'local directory';
    case 'sftp':
      return `sftp:${store.user}@${store.host}:${store.port}${store.path}`;
    case 's3':
      return `s3:${store.endpoint}/${store.bucket}${store.prefix ? `/${store.prefix}` : ''}`;
  }
}
