import type { RouteName } from './routes.js';

const SETTINGS_SAMPLE = {
  enabled: true,
  schedule: { kind: 'daily', time: '03:00' },
  keep_daily: 7,
  keep_weekly: 4,
  repository: 'local directory',
  next_backup_at: '2026-11-28T03:00:00.000Z',
  missed_since: null,
};
/** A verified backup of a PostgreSQL and an uploads volume. */
const BACKUP_SAMPLE = {
  id: '0b8f3c1e-5d6a-4f2b-9c7e-1a2b3c4d5e6f',
  status: 'verified',
  trigger: 'manual',
  cause: null,
  parts: [
    {
      service: 'db',
      method: 'postgres',
      volumes: ['pgdata'],
      size_bytes: 48_211_002,
      checked: '3 tables, 100,004 rows',
    },
    {
      service: 'web',
      method: 'files',
      volumes: ['uploads'],
      size_bytes: 2_048_000,
      checked: '12 files, 2.0 MB',
    },
  ],
  size_bytes: 50_259_002,
  added_bytes: 9_120_331,
  started_at: '2026-11-27T12:00:00.000Z',
  finished_at: '2026-11-27T12:00:41.000Z',
  verified_at: '2026-11-27T12:00:41.000Z',
  rechecked_at: null,
};
const RESTORE_SAMPLE = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  backup_id: BACKUP_SAMPLE.id,
  safety_backup_id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
  services: ['db', 'web'],
  status: 'restoring',
  cause: null,
  started_at: '2026-11-27T13:00:00.000Z',
  finished_at: null,
};

/** Answers of Workspace Settings → Backups, for the response schema tests. */
export const BACKUP_RESPONSE_SAMPLES: Partial<Record<RouteName, Record<number, unknown>>> = {
  listBackups: {
    200: {
      settings: SETTINGS_SAMPLE,
      backups: [
        {
          ...BACKUP_SAMPLE,
          id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
          status: 'failed',
          trigger: 'schedule',
          cause: 'The disk of the backup repository is full: free space or move the repository',
          verified_at: null,
        },
        BACKUP_SAMPLE,
      ],
      latest_restore: { ...RESTORE_SAMPLE, status: 'done', finished_at: '2026-11-27T13:01:10.000Z' },
    },
  },
  setBackupSettings: { 200: { ...SETTINGS_SAMPLE, schedule: { kind: 'cron', expression: '0 */6 * * *' } } },
  backUpNow: {
    202: { ...BACKUP_SAMPLE, status: 'running', finished_at: null, verified_at: null, parts: [] },
  },
  getBackup: { 200: BACKUP_SAMPLE },
  startRestore: { 202: { ...RESTORE_SAMPLE, status: 'reading' } },
  getRestore: { 200: RESTORE_SAMPLE },
  exportBackupKey: {
    200: {
      repository: '/var/lib/slipway/backups/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      password: 'bG9uZyByYW5kb20gcGFzc3dvcmQgb2YgMzIgYnl0ZXM',
      safety_repositories:
        '/var/lib/slipway/backups/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f.safety/{restore id}',
      commands: [
        'restic --repo /var/lib/slipway/backups/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f snapshots',
        'restic --repo /var/lib/slipway/backups/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f dump SNAPSHOT /db.sql > db.sql',
      ],
    },
  },
};
