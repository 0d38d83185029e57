import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaces } from './coreTables.js';

/**
 * One part of a backup as the engine returned it (infra/backup/backupEngine.ts PartResult), with what its
 * verification compared: the snapshot id and fingerprint are what a restore and a retention pass need.
 */
export interface StoredBackupPart {
  service: string;
  method: string;
  volumes: string[];
  snapshotId: string;
  sizeBytes: number;
  addedBytes: number;
  fingerprint: unknown;
  checked: string | null;
}

/**
 * Workspace Settings → Backups. A row is made for a workspace the first time backups are asked about (the
 * scheduler makes one for every live workspace): it holds the workspace's own restic repository password,
 * sealed by the vault like the workspace's variables.
 */
export const backupSettings = pgTable('backup_settings', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull(),
  /** `daily` (at `scheduleTime`, UTC) or `cron` (`scheduleCron`, UTC). */
  scheduleKind: text('schedule_kind').notNull(),
  scheduleTime: text('schedule_time'),
  scheduleCron: text('schedule_cron'),
  keepDaily: integer('keep_daily').notNull(),
  keepWeekly: integer('keep_weekly').notNull(),
  /** The repository password: vault ciphertext, never the password itself. */
  passwordEnc: text('password_enc').notNull(),
  nextBackupAt: timestamp('next_backup_at', { withTimezone: true }),
  /** Since when the schedule holds as it is: a backup is missed 1.5 periods after the later of this and the last verified one. */
  scheduledSince: timestamp('scheduled_since', { withTimezone: true }).notNull().defaultNow(),
  missedSince: timestamp('missed_since', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** One backup of a workspace: its parts (one per service with data), each a restic snapshot. */
export const backups = pgTable(
  'backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    trigger: text('trigger').notNull(),
    cause: text('cause'),
    parts: jsonb('parts').$type<StoredBackupPart[]>().notNull().default([]),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    addedBytes: bigint('added_bytes', { mode: 'number' }).notNull().default(0),
    /** Beaten while it runs: a row whose heartbeat stopped was left by a crash. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [
    index('backups_workspace_idx').on(t.workspaceId, t.startedAt),
    index('backups_active_idx').on(t.status).where(sql`status in ('running', 'verifying')`),
  ],
);

/** One restore of a backup (all its services, or one), with the safety backup taken before it. */
export const restores = pgTable(
  'restores',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    // No foreign keys to `backups`: a restore stays in the history after retention forgot its backups.
    backupId: uuid('backup_id').notNull(),
    safetyBackupId: uuid('safety_backup_id'),
    services: jsonb('services').$type<string[]>().notNull(),
    status: text('status').notNull(),
    cause: text('cause'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('restores_workspace_idx').on(t.workspaceId, t.startedAt)],
);
