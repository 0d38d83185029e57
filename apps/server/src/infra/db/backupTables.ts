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
  /** SHA-256 of the bytes restic stored (parts written since it was recorded): a read-back must give them. */
  sha256?: string;
}

/**
 * What a restore has done so far, kept on its row so that the process that takes it over after a crash knows
 * what to finish or undo: each part's staged data (volumes made for it), and the containers it stopped.
 */
export interface RestorePlan {
  staged: {
    service: string;
    checked: string;
    units: {
      live: string;
      livePath: string;
      staging: string;
      stagingPath: string;
      previous: string;
      liveExisted: boolean;
      keep: string[];
    }[];
  }[];
  /** Containers stopped around the swap (recorded before they are stopped), started again whatever happens. */
  held: string[];
  /** Set when putting the live data back failed: its volumes stay for an operator, never removed by Slipway. */
  keptForOperator?: boolean;
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
    /**
     * The repository its snapshots are in, below the workspace's: null for the workspace's own, `safety/{restore}`
     * for a restore's safety backup (a repository of its own, so that its data never depends on another's packs).
     */
    repository: text('repository'),
    /** Beaten while it runs: a row whose heartbeat stopped was left by a crash. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    /** How many times a process took it (jobs/durableRuns.ts): 0 while queued. */
    attempts: integer('attempts').notNull().default(0),
    /** When its data was last read back in full by the re-check of old backups. */
    recheckedAt: timestamp('rechecked_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [
    index('backups_workspace_idx').on(t.workspaceId, t.startedAt),
    index('backups_active_idx').on(t.status).where(sql`status in ('running', 'verifying')`),
    index('backups_recheck_idx').on(t.status, t.recheckedAt),
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
    plan: jsonb('plan').$type<RestorePlan>().notNull().default({ staged: [], held: [] }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('restores_workspace_idx').on(t.workspaceId, t.startedAt)],
);
