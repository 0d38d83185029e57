import { z } from 'zod';
import { workspaceNameParam } from './pathParams.js';
import { timestampSchema } from './schemaKit.js';

/**
 * A backup's life: Running (dumps and copies going into the repository) → Verifying (restored into a
 * throwaway container and checked) → Verified; or Failed, with the reason in words. A backup is never
 * called good before its restore was checked. A Verified backup whose data can no longer be read back (found
 * by the re-check of old backups, or by a restore) becomes Damaged, with the reason.
 */
export const BACKUP_STATUSES = ['running', 'verifying', 'verified', 'failed', 'damaged'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

export const BACKUP_STATUS_LABELS: Record<BackupStatus, string> = {
  running: 'Backing up',
  verifying: 'Verifying',
  verified: 'Verified',
  failed: 'Failed',
  damaged: 'Damaged',
};

/** Why a backup was taken. */
export const BACKUP_TRIGGERS = ['schedule', 'manual', 'safety'] as const;
export type BackupTrigger = (typeof BACKUP_TRIGGERS)[number];

/** How one service's data goes into a backup: its own consistent dump, or its volumes' files. */
export const BACKUP_METHODS = ['postgres', 'mysql', 'mongodb', 'redis', 'files'] as const;
export type BackupMethod = (typeof BACKUP_METHODS)[number];

export const BACKUP_METHOD_LABELS: Record<BackupMethod, string> = {
  postgres: 'PostgreSQL dump (pg_dumpall)',
  mysql: 'MySQL/MariaDB dump (mysqldump --single-transaction)',
  mongodb: 'MongoDB dump (mongodump --archive)',
  redis: 'Redis snapshot (BGSAVE)',
  files: 'Volume files',
};

export const DEFAULT_BACKUP_TIME = '03:00';
export const DEFAULT_KEEP_DAILY = 7;
export const DEFAULT_KEEP_WEEKLY = 4;
/** A backup is missed when none was verified within this many schedule periods. */
export const MISSED_BACKUP_FACTOR = 1.5;

const TIME_OF_DAY = 'Enter a time of day as HH:MM, e.g. 03:00';
const dailyTimeSchema = z
  .string({ error: TIME_OF_DAY })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: TIME_OF_DAY });

const CRON_EXPRESSION =
  'Enter a cron expression of five fields (minute hour day-of-month month day-of-week), e.g. 0 3 * * *';
const SCHEDULE_SHAPE =
  'Choose a schedule: {"kind": "daily", "time": "03:00"} or {"kind": "cron", "expression": "0 3 * * *"}';

/** Every refusal of a schedule says which of its parts is wrong, in words a form can show under it. */
export const backupScheduleSchema = z.discriminatedUnion(
  'kind',
  [
    /** Once a day at this time (UTC). */
    z.object({ kind: z.literal('daily'), time: dailyTimeSchema }),
    /** A five-field cron expression (UTC), checked by the schedule catalogue. */
    z.object({
      kind: z.literal('cron'),
      expression: z
        .string({ error: CRON_EXPRESSION })
        .min(9, { error: CRON_EXPRESSION })
        .max(100, { error: 'A cron expression is at most 100 characters' }),
    }),
  ],
  { error: SCHEDULE_SHAPE },
);
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

export const backupSettingsSchema = z.object({
  enabled: z.boolean(),
  schedule: backupScheduleSchema,
  keep_daily: z.number().int().min(1).max(365),
  keep_weekly: z.number().int().min(0).max(520),
  /** Where the repository lives, in words (`local directory`, `sftp:…`, `s3:…`), never a credential. */
  repository: z.string(),
  /** When the next scheduled backup is due; null while backups are off. */
  next_backup_at: timestampSchema.nullable(),
  /** Set when no backup was verified within 1.5 × the schedule's period. */
  missed_since: timestampSchema.nullable(),
});
export type BackupSettings = z.infer<typeof backupSettingsSchema>;

const KEEP_DAILY = 'Keep a whole number of daily backups, from 1 to 365';
const KEEP_WEEKLY = 'Keep a whole number of weekly backups, from 0 to 520';

/** Each field's refusal names the field, for the API's callers and for the form that shows it under it. */
export const updateBackupSettingsSchema = z.object(
  {
    enabled: z.boolean({ error: 'Say whether scheduled backups are on: enabled is true or false' }),
    schedule: backupScheduleSchema,
    keep_daily: z
      .number({ error: KEEP_DAILY })
      .int({ error: KEEP_DAILY })
      .min(1, { error: 'Keep at least 1 daily backup' })
      .max(365, { error: KEEP_DAILY }),
    keep_weekly: z
      .number({ error: KEEP_WEEKLY })
      .int({ error: KEEP_WEEKLY })
      .min(0, { error: KEEP_WEEKLY })
      .max(520, { error: KEEP_WEEKLY }),
  },
  { error: 'Send the backup settings: enabled, schedule, keep_daily and keep_weekly' },
);
export type UpdateBackupSettings = z.infer<typeof updateBackupSettingsSchema>;

/** One service's part of a backup. */
export const backupPartSchema = z.object({
  service: z.string(),
  method: z.enum(BACKUP_METHODS),
  /** The named volumes this part holds. */
  volumes: z.array(z.string()),
  /** Bytes of the dump or of the files, before deduplication. */
  size_bytes: z.number().int().nonnegative(),
  /** What the verification compared: tables and their row counts, or file count and bytes. */
  checked: z.string().nullable(),
});
export type BackupPart = z.infer<typeof backupPartSchema>;

export const backupSchema = z.object({
  id: z.string(),
  status: z.enum(BACKUP_STATUSES),
  trigger: z.enum(BACKUP_TRIGGERS),
  /** Why it failed, in a sentence an operator can act on; null otherwise. */
  cause: z.string().nullable(),
  parts: z.array(backupPartSchema),
  size_bytes: z.number().int().nonnegative(),
  /** Bytes this backup added to the repository after deduplication. */
  added_bytes: z.number().int().nonnegative(),
  started_at: timestampSchema,
  finished_at: timestampSchema.nullable(),
  verified_at: timestampSchema.nullable(),
  /** When its data was last read back in full by the re-check of old backups; null before the first. */
  rechecked_at: timestampSchema.nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

/**
 * A restore's life, shown live while it runs: the backup is read in full and checked, and a safety backup of
 * the data as it is is stored and verified, before anything live is touched; the services are stopped only
 * for the swap of the checked data into place.
 */
export const RESTORE_STATUSES = [
  'reading',
  'safety_backup',
  'stopping',
  'restoring',
  'starting',
  'verifying',
  'rolling_back',
  'done',
  'failed',
  'rolled_back',
] as const;
export type RestoreStatus = (typeof RESTORE_STATUSES)[number];

export const RESTORE_STATUS_LABELS: Record<RestoreStatus, string> = {
  reading: 'Reading and checking the backup',
  safety_backup: 'Taking a safety backup',
  stopping: 'Stopping services',
  restoring: 'Restoring data',
  starting: 'Starting services',
  verifying: 'Checking health',
  rolling_back: 'Putting the data back as it was',
  done: 'Restored',
  failed: 'Restore failed',
  rolled_back: 'Restore failed: the data was put back as it was',
};

export const startRestoreSchema = z.object({
  /** One service, or every service of the backup when absent. */
  service: z.string().min(1).max(200).optional(),
});
export type StartRestore = z.input<typeof startRestoreSchema>;

export const restoreSchema = z.object({
  id: z.string(),
  backup_id: z.string(),
  safety_backup_id: z.string().nullable(),
  services: z.array(z.string()),
  status: z.enum(RESTORE_STATUSES),
  cause: z.string().nullable(),
  started_at: timestampSchema,
  finished_at: timestampSchema.nullable(),
});
export type Restore = z.infer<typeof restoreSchema>;

export const backupParamsSchema = z.object({
  name: workspaceNameParam,
  backupId: z.string().uuid({ error: 'Unknown backup' }),
});

export const restoreParamsSchema = z.object({
  name: workspaceNameParam,
  restoreId: z.string().uuid({ error: 'Unknown restore' }),
});

/** Workspace Settings → Backups in one answer: settings, backups newest first, the latest restore. */
export const backupOverviewSchema = z.object({
  settings: backupSettingsSchema,
  backups: z.array(backupSchema),
  latest_restore: restoreSchema.nullable(),
});
export type BackupOverview = z.infer<typeof backupOverviewSchema>;

/**
 * What it takes to restore a workspace's backups with plain restic, if Slipway (or its data directory) is lost:
 * its repository, the repository's password, and where a restore's safety backups are. Shown once to its owner,
 * and every export is written to the audit log.
 */
export const backupKeySchema = z.object({
  /** restic's `--repo` for the workspace's backups (`/srv/…`, `sftp:user@host:/…`, `s3:https://…/bucket/…`). */
  repository: z.string(),
  /** The repository's password (restic's `--password-file` content). */
  password: z.string(),
  /** Where each restore's safety backup is: a repository of its own below this, with the same password. */
  safety_repositories: z.string(),
  /** restic commands that list the snapshots and write a part's file out, with this repository filled in. */
  commands: z.array(z.string()),
});
export type BackupKey = z.infer<typeof backupKeySchema>;
