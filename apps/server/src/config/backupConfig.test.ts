import { describe, expect, it } from 'vitest';
import { backupStoreFrom } from './backupConfig.js';

describe('BACKUP_REPOSITORY', () => {
  it('is a directory under DATA_DIR by default', () => {
    expect(backupStoreFrom({}, '/data')).toEqual({ kind: 'local', root: '/data/backups' });
  });

  it('reads sftp:user@host:port/path with its identity and known hosts files', () => {
    expect(
      backupStoreFrom(
        {
          BACKUP_REPOSITORY: 'sftp:backup@192.0.2.10:2222/srv/slipway/',
          BACKUP_SFTP_IDENTITY_FILE: '/k',
          BACKUP_SFTP_KNOWN_HOSTS: '/h',
        },
        '/data',
      ),
    ).toEqual({
      kind: 'sftp',
      user: 'backup',
      host: '192.0.2.10',
      port: 2222,
      path: '/srv/slipway',
      identityFile: '/k',
      knownHostsFile: '/h',
    });
    expect(backupStoreFrom({ BACKUP_REPOSITORY: 'sftp:backup@host:22/srv' }, '/d')).toMatch(/IDENTITY_FILE/);
    expect(backupStoreFrom({ BACKUP_REPOSITORY: 'sftp:-oProxyCommand=x@host:22/srv' }, '/d')).toMatch(
      /sftp:user@host:port\/path/,
    );
  });

  it('reads s3:https://endpoint/bucket/prefix with its keys', () => {
    expect(
      backupStoreFrom(
        {
          BACKUP_REPOSITORY: 's3:https://s3.example.com/bucket/a/b',
          BACKUP_S3_ACCESS_KEY_ID: 'id',
          BACKUP_S3_SECRET_ACCESS_KEY: 'secret',
        },
        '/d',
      ),
    ).toEqual({
      kind: 's3',
      endpoint: 'https://s3.example.com',
      bucket: 'bucket',
      prefix: 'a/b',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      region: undefined,
    });
    expect(backupStoreFrom({ BACKUP_REPOSITORY: 's3:https://s3.example.com/bucket' }, '/d')).toMatch(
      /ACCESS_KEY/,
    );
    expect(backupStoreFrom({ BACKUP_REPOSITORY: 'ftp://x' }, '/d')).toMatch(/sftp: or s3:/);
  });
});
