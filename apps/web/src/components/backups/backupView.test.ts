import type { Backup, BackupOverview, BackupSettings, Restore } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/dates';
import {
  backupStateText,
  backupStatus,
  backupsPollInterval,
  canBackUpNow,
  canRestore,
  IDLE_POLL_MS,
  inWords,
  latestBackup,
  MOVING_POLL_MS,
  missedText,
  partName,
  RESTORE_POLL_MS,
  restorePollInterval,
  restoreQuestion,
  restoreStatus,
  restoreStepStates,
  restoreSummary,
} from './backupView';

const STARTED = '2026-11-27T03:00:00.000Z';
const at = formatDateTime(STARTED);

const backup: Backup = {
  id: '5b0c3f43-8c55-4a4f-9d0e-9c1b8f9b2d11',
  status: 'verified',
  trigger: 'manual',
  cause: null,
  parts: [
    {
      service: 'db',
      method: 'postgres',
      volumes: ['pgdata'],
      size_bytes: 4_200_000,
      checked: '1 table, 100000 rows',
    },
    { service: 'web', method: 'files', volumes: ['uploads'], size_bytes: 2048, checked: '1 file, 2.0 KB' },
  ],
  size_bytes: 4_202_048,
  added_bytes: 1_000_000,
  started_at: STARTED,
  finished_at: '2026-11-27T03:01:00.000Z',
  verified_at: '2026-11-27T03:02:00.000Z',
  rechecked_at: null,
};

const settings: BackupSettings = {
  enabled: true,
  schedule: { kind: 'daily', time: '03:00' },
  keep_daily: 7,
  keep_weekly: 4,
  repository: 'local directory',
  next_backup_at: null,
  missed_since: null,
};

const restore: Restore = {
  id: '0d6f7c1e-7d1b-4c5e-a3c2-1f2e3d4c5b6a',
  backup_id: backup.id,
  safety_backup_id: null,
  services: ['db', 'web'],
  status: 'restoring',
  cause: null,
  started_at: '2026-11-27T10:00:00.000Z',
  finished_at: null,
};

const overview = (change: Partial<BackupOverview> = {}): BackupOverview => ({
  settings,
  backups: [backup],
  latest_restore: null,
  ...change,
});

describe('what a restore overwrites, in words', () => {
  it('joins names as a sentence does', () => {
    expect(inWords([])).toBe('');
    expect(inWords(['db'])).toBe('db');
    expect(inWords(['db', 'web'])).toBe('db and web');
    expect(inWords(['db', 'web', 'cache'])).toBe('db, web and cache');
  });

  it('names a part by its service and volumes', () => {
    expect(partName({ service: 'web', volumes: ['uploads', 'media'] })).toBe('web (uploads and media)');
    expect(partName({ service: 'db', volumes: [] })).toBe('db');
  });

  it('names every service and volume a full restore overwrites, the backup’s time and the safety backup', () => {
    expect(restoreQuestion(backup)).toBe(
      `This overwrites the data of db (pgdata) and web (uploads) with the backup from ${at}. ` +
        'Until the restore has finished and passed the health check, db and web may be unavailable. ' +
        'A safety backup of the data as it is now is taken first, and put back if the restore fails.',
    );
  });

  it('names only the chosen service for a restore of one', () => {
    expect(restoreQuestion(backup, 'web')).toBe(
      `This overwrites the data of web (uploads) with the backup from ${at}. ` +
        'Until the restore has finished and passed the health check, web may be unavailable. ' +
        'A safety backup of the data as it is now is taken first, and put back if the restore fails.',
    );
  });
});

describe('when the screens read again', () => {
  it('polls the list every 2 s while a backup or a restore runs, else every 30 s', () => {
    expect(backupsPollInterval(undefined)).toBe(IDLE_POLL_MS);
    expect(backupsPollInterval(overview())).toBe(IDLE_POLL_MS);
    expect(backupsPollInterval(overview({ backups: [{ ...backup, status: 'verifying' }] }))).toBe(
      MOVING_POLL_MS,
    );
    expect(backupsPollInterval(overview({ latest_restore: restore }))).toBe(MOVING_POLL_MS);
    expect(backupsPollInterval(overview({ latest_restore: { ...restore, status: 'done' } }))).toBe(
      IDLE_POLL_MS,
    );
  });

  it('follows a restore every second until it has finished', () => {
    expect(restorePollInterval(restore)).toBe(RESTORE_POLL_MS);
    for (const status of ['done', 'failed', 'rolled_back'] as const) {
      expect(restorePollInterval({ ...restore, status })).toBe(false);
    }
  });
});

describe('what can be pressed', () => {
  it('offers Back Up Now unless a backup or a restore runs', () => {
    expect(canBackUpNow(overview())).toBe(true);
    expect(canBackUpNow(overview({ backups: [{ ...backup, status: 'running' }] }))).toBe(false);
    expect(canBackUpNow(overview({ latest_restore: restore }))).toBe(false);
  });

  it('restores only a Verified backup, while no backup or other restore runs', () => {
    expect(canRestore(backup, overview())).toBe(true);
    expect(canRestore({ ...backup, status: 'failed' }, overview())).toBe(false);
    expect(canRestore(backup, overview({ latest_restore: restore }))).toBe(false);
    const running = { ...backup, id: 'running', status: 'running' as const };
    expect(canRestore(backup, overview({ backups: [running, backup] }))).toBe(false);
  });
});

describe('states in words', () => {
  it('says when the latest backup was verified or failed', () => {
    expect(backupStateText(backup)).toBe(`Verified at ${formatDateTime(backup.verified_at)}`);
    expect(backupStateText({ ...backup, status: 'failed' })).toBe(
      `Failed at ${formatDateTime(backup.finished_at)}`,
    );
    expect(backupStateText({ ...backup, status: 'running', finished_at: null })).toBe(
      `Backing up since ${at}`,
    );
  });

  it('reports the newest backup that is not a restore’s safety backup', () => {
    const safety = { ...backup, id: 'safety', trigger: 'safety' as const };
    expect(latestBackup([safety, backup])?.id).toBe(backup.id);
    expect(latestBackup([safety])?.id).toBe('safety');
    expect(latestBackup([])).toBeUndefined();
  });

  it('says which backup a restore put back, or where it is', () => {
    expect(restoreSummary({ ...restore, status: 'done' }, [backup])).toBe(`Restored backup from ${at}`);
    expect(restoreSummary({ ...restore, status: 'done' }, [])).toBe('Restored a backup');
    expect(restoreSummary(restore, [backup])).toBe(`Restoring the backup from ${at}`);
    expect(restoreSummary({ ...restore, status: 'rolled_back' }, [backup])).toBe(
      `Restoring the backup from ${at} failed: the safety backup was put back`,
    );
  });

  it('shows the steps done, under way and to come', () => {
    expect(restoreStepStates('stopping')).toEqual([
      'done',
      'done',
      'current',
      'waiting',
      'waiting',
      'waiting',
    ]);
    expect(restoreStepStates('done')).toEqual(['done', 'done', 'done', 'done', 'done', 'done']);
    expect(restoreStepStates('failed')).toBeNull();
  });
});

describe('the overdue banner', () => {
  const missed = { ...settings, missed_since: STARTED };

  it('is not shown while a backup was verified in time', () => {
    expect(missedText(settings, [backup])).toBeNull();
  });

  it('gives the latest failure’s reason', () => {
    const failed = { ...backup, status: 'failed' as const, cause: 'The repository password is wrong.' };
    expect(missedText(missed, [failed])).toBe(
      `No backup was verified since ${at}: the latest backup failed (The repository password is wrong).`,
    );
  });

  it('says when the schedule is off, or did not run', () => {
    expect(missedText({ ...missed, enabled: false }, [backup])).toBe(
      `No backup was verified since ${at}: scheduled backups are off.`,
    );
    expect(missedText(missed, [])).toBe(
      `No backup was verified since ${at}: the scheduled backup did not run.`,
    );
  });
});

describe('status badges', () => {
  it('turn while a backup or a restore moves on by itself, and stay once it has ended', () => {
    expect(backupStatus({ ...backup, status: 'verifying' })).toEqual({
      label: 'Verifying',
      tone: 'info',
      moving: true,
    });
    expect(backupStatus({ ...backup, status: 'failed' })).toEqual({
      label: 'Failed',
      tone: 'danger',
      moving: false,
    });
    expect(restoreStatus(restore)).toEqual({ label: 'Restoring data', tone: 'info', moving: true });
    expect(restoreStatus({ ...restore, status: 'rolled_back' })).toMatchObject({
      tone: 'warning',
      moving: false,
    });
  });
});
