import type { Backup, BackupMethod, BackupSettings, Restore } from '@slipway/contract';
import { scheduleOf } from './backupSchedule.js';
import type { BackupRow, BackupSettingsRow, RestoreRow } from './backupsRepository.js';

export function presentBackup(row: BackupRow): Backup {
  return {
    id: row.id,
    status: row.status as Backup['status'],
    trigger: row.trigger as Backup['trigger'],
    cause: row.cause,
    parts: row.parts.map((part) => ({
      service: part.service,
      method: part.method as BackupMethod,
      volumes: part.volumes,
      size_bytes: part.sizeBytes,
      checked: part.checked,
    })),
    size_bytes: row.sizeBytes,
    added_bytes: row.addedBytes,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    rechecked_at: row.recheckedAt?.toISOString() ?? null,
  };
}

export function presentRestore(row: RestoreRow): Restore {
  return {
    id: row.id,
    backup_id: row.backupId,
    safety_backup_id: row.safetyBackupId,
    services: row.services,
    status: row.status as Restore['status'],
    cause: row.cause,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** The settings, never the password: `repository` says where in words. */
export function presentSettings(row: BackupSettingsRow, repository: string): BackupSettings {
  return {
    enabled: row.enabled,
    schedule: scheduleOf(row),
    keep_daily: row.keepDaily,
    keep_weekly: row.keepWeekly,
    repository,
    next_backup_at: row.enabled ? (row.nextBackupAt?.toISOString() ?? null) : null,
    missed_since: row.missedSince?.toISOString() ?? null,
  };
}
