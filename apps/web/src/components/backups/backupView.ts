import {
  BACKUP_STATUS_LABELS,
  type Backup,
  type BackupOverview,
  type BackupPart,
  type BackupSettings,
  type BackupStatus,
  RESTORE_STATUS_LABELS,
  type Restore,
  type RestoreStatus,
} from '@slipway/contract';
import { formatDateTime } from '../../lib/dates';
import { statusOf } from '../StatusBadge';
import type { BadgeTone } from '../ui';

/** Blue while it runs or is checked, green once its restore checked out, red when it failed or is damaged. */
export const BACKUP_STATUS_TONES = {
  running: 'info',
  verifying: 'info',
  verified: 'success',
  failed: 'danger',
  damaged: 'danger',
} as const satisfies Record<BackupStatus, BadgeTone>;

/** Green when restored, red when it failed, amber while and once the data as it was is put back. */
export const RESTORE_STATUS_TONES = {
  reading: 'info',
  safety_backup: 'info',
  stopping: 'info',
  restoring: 'info',
  starting: 'info',
  verifying: 'info',
  rolling_back: 'warning',
  done: 'success',
  failed: 'danger',
  rolled_back: 'warning',
} as const satisfies Record<RestoreStatus, BadgeTone>;

/** A restore's steps in the order it takes them, for showing how far it got. */
export const RESTORE_STEPS = [
  'reading',
  'safety_backup',
  'stopping',
  'restoring',
  'starting',
  'verifying',
] as const;

export type RestoreStepState = 'done' | 'current' | 'waiting';

/**
 * Where each step stands: before the current one done, the current one under way, after it waiting; all done
 * once restored. Null for a failed restore: its cause says where it stopped.
 */
export function restoreStepStates(status: RestoreStatus): RestoreStepState[] | null {
  if (status === 'done') return RESTORE_STEPS.map(() => 'done');
  const current = (RESTORE_STEPS as readonly RestoreStatus[]).indexOf(status);
  if (current === -1) return null;
  return RESTORE_STEPS.map((_, index) =>
    index < current ? 'done' : index === current ? 'current' : 'waiting',
  );
}

const FINISHED: ReadonlySet<RestoreStatus> = new Set(['done', 'failed', 'rolled_back']);

/** A backup that moves on by itself: Backing up → Verifying → Verified or Failed. */
export const isBackupMoving = (backup: Backup) =>
  backup.status === 'running' || backup.status === 'verifying';

export const isRestoreRunning = (restore: Restore | null | undefined): restore is Restore =>
  restore !== null && restore !== undefined && !FINISHED.has(restore.status);

const backupStatusOf = statusOf(BACKUP_STATUS_LABELS, BACKUP_STATUS_TONES);
const restoreStatusOf = statusOf(RESTORE_STATUS_LABELS, RESTORE_STATUS_TONES);

/** Verified / Failed / Backing up / Verifying, turning while it moves on by itself. */
export const backupStatus = (backup: Backup) => backupStatusOf(backup.status, isBackupMoving(backup));

/** The restore's step while it runs (turning), or how it ended. */
export const restoreStatus = (restore: Restore) => restoreStatusOf(restore.status, isRestoreRunning(restore));

/** While a backup or a restore runs, the list is read this often (a safety backup appears in it too). */
export const MOVING_POLL_MS = 2_000;
/** Otherwise: a scheduled backup starts by itself, so it shows up without a reload. */
export const IDLE_POLL_MS = 30_000;
/** A running restore's progress is read every second. */
export const RESTORE_POLL_MS = 1_000;

export const backupsPollInterval = (overview: BackupOverview | undefined): number =>
  overview?.backups.some(isBackupMoving) || isRestoreRunning(overview?.latest_restore)
    ? MOVING_POLL_MS
    : IDLE_POLL_MS;

export const restorePollInterval = (restore: Restore | undefined): number | false =>
  isRestoreRunning(restore) ? RESTORE_POLL_MS : false;

/** Whether Back Up Now can start one: not while a backup or a restore of the workspace runs (the server answers 409). */
export const canBackUpNow = (overview: BackupOverview) =>
  !overview.backups.some(isBackupMoving) && !isRestoreRunning(overview.latest_restore);

/** Only a Verified backup can be restored, and not while a backup or another restore of the workspace runs. */
export const canRestore = (backup: Backup, overview: BackupOverview) =>
  backup.status === 'verified' && canBackUpNow(overview);

/** 'a', 'a and b', 'a, b and c'. */
export function inWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** 'db (pgdata)', 'web (uploads and media)'; the service alone when it names no volume. */
export const partName = (part: Pick<BackupPart, 'service' | 'volumes'>) =>
  part.volumes.length === 0 ? part.service : `${part.service} (${inWords(part.volumes)})`;

/** When the backup's data was taken: its start. */
export const backupTime = (backup: Backup) => formatDateTime(backup.started_at);

/** The parts a restore of `service` (or of every service when none is named) puts back. */
export const partsToRestore = (backup: Backup, service?: string) =>
  service === undefined ? backup.parts : backup.parts.filter((part) => part.service === service);

/**
 * The confirmation before a restore: exactly what is overwritten, by which backup, what is unavailable meanwhile,
 * and the safety backup taken first.
 */
export function restoreQuestion(backup: Backup, service?: string): string {
  const parts = partsToRestore(backup, service);
  const services = inWords(parts.map((part) => part.service));
  return [
    `This overwrites the data of ${inWords(parts.map(partName))} with the backup from ${backupTime(backup)}.`,
    `Until the restore has finished and passed the health check, ${services} may be unavailable.`,
    'A safety backup of the data as it is now is taken first, and put back if the restore fails.',
  ].join(' ');
}

/** The backup a restore put back, when the list still holds it. */
export const restoredBackup = (restore: Restore, backups: readonly Backup[]) =>
  backups.find((backup) => backup.id === restore.backup_id);

/** 'Restored backup from {time}', 'Restoring the backup from {time}' (its step is the badge's), or how it failed. */
export function restoreSummary(restore: Restore, backups: readonly Backup[]): string {
  const backup = restoredBackup(restore, backups);
  const what = backup ? `the backup from ${backupTime(backup)}` : 'a backup';
  switch (restore.status) {
    case 'done':
      return backup ? `Restored backup from ${backupTime(backup)}` : 'Restored a backup';
    case 'failed':
      return `Restoring ${what} failed`;
    case 'rolled_back':
      return `Restoring ${what} failed: the safety backup was put back`;
    default:
      return `Restoring ${what}`;
  }
}

/** The newest backup that is not a restore's safety backup (what the dashboard reports). */
export const latestBackup = (backups: readonly Backup[]) =>
  backups.find((backup) => backup.trigger !== 'safety') ?? backups[0];

/** The banner when no backup was verified within 1.5 × the schedule, with the likeliest reason. */
export function missedText(settings: BackupSettings, backups: readonly Backup[]): string | null {
  if (!settings.missed_since) return null;
  const latest = latestBackup(backups);
  const reason =
    latest && isBackupMoving(latest)
      ? 'a backup is running now.'
      : latest?.status === 'failed'
        ? `the latest backup failed${latest.cause ? ` (${latest.cause.replace(/\.$/, '')})` : ''}.`
        : !settings.enabled
          ? 'scheduled backups are off.'
          : 'the scheduled backup did not run.';
  return `No backup was verified since ${formatDateTime(settings.missed_since)}: ${reason}`;
}

/** 'Verified at {time}', 'Failed at {time}', 'Backing up since {time}'. */
export function backupStateText(backup: Backup): string {
  switch (backup.status) {
    case 'verified':
      return `Verified at ${formatDateTime(backup.verified_at ?? backup.finished_at ?? backup.started_at)}`;
    case 'failed':
      return `Failed at ${formatDateTime(backup.finished_at ?? backup.started_at)}`;
    case 'verifying':
      return `Verifying the backup from ${backupTime(backup)}`;
    default:
      return `Backing up since ${backupTime(backup)}`;
  }
}

export const TRIGGER_TEXT = {
  schedule: 'Scheduled',
  manual: 'Back Up Now',
  safety: 'Safety backup before a restore',
} as const satisfies Record<Backup['trigger'], string>;
