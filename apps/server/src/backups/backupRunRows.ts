import { and, eq, gt, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { backups, restores } from '../infra/db/schema.js';

type BackupRow = typeof backups.$inferSelect;
type RestoreRow = typeof restores.$inferSelect;

/** A backup that is still at work. */
export const ACTIVE_BACKUP = ['running', 'verifying'];
/** A restore that is still at work. */
export const ACTIVE_RESTORE = [
  'reading',
  'safety_backup',
  'stopping',
  'restoring',
  'starting',
  'verifying',
  'rolling_back',
];

/**
 * A run was taken by a process (jobs/durableRuns.ts) once its attempts count or it moved past its first status;
 * before that it waits in the queue, and only the queue hands it out.
 */
const taken = (table: typeof backups | typeof restores, first: string) =>
  or(gt(table.attempts, 0), ne(table.status, first));

/**
 * Backups and restores as durable runs: taken by one process at a time, beaten while they run, found when their
 * process died (jobs/durableRuns.ts). Part of the backups repository, the one owner of these tables.
 */
export function createBackupRunRows(db: Db) {
  return {
    /**
     * Takes a backup for a process: its first run (never taken), or again once taken and its heartbeat is older
     * than `staleBefore`. One caller wins. A safety backup is its restore's, never taken on its own.
     */
    async claimBackup(id: string, now: Date, staleBefore: Date) {
      const [row] = await db
        .update(backups)
        .set({ attempts: sql`${backups.attempts} + 1`, heartbeatAt: now })
        .where(
          and(
            eq(backups.id, id),
            inArray(backups.status, ACTIVE_BACKUP),
            ne(backups.trigger, 'safety'),
            or(
              and(eq(backups.attempts, 0), eq(backups.status, 'running')),
              and(taken(backups, 'running'), lt(backups.heartbeatAt, staleBefore)),
            ),
          ),
        )
        .returning();
      return row && { row, resumed: row.attempts > 1 || row.status !== 'running' };
    },

    /** Backups taken and still at work whose heartbeat stopped before `before` (safety backups: their restore's). */
    async staleBackups(before: Date): Promise<string[]> {
      const rows = await db
        .select({ id: backups.id })
        .from(backups)
        .where(
          and(
            inArray(backups.status, ACTIVE_BACKUP),
            ne(backups.trigger, 'safety'),
            taken(backups, 'running'),
            lt(backups.heartbeatAt, before),
          ),
        );
      return rows.map((row) => row.id);
    },

    async claimRestore(id: string, now: Date, staleBefore: Date) {
      const [row] = await db
        .update(restores)
        .set({ attempts: sql`${restores.attempts} + 1`, heartbeatAt: now })
        .where(
          and(
            eq(restores.id, id),
            inArray(restores.status, ACTIVE_RESTORE),
            or(
              and(eq(restores.attempts, 0), eq(restores.status, 'reading')),
              and(taken(restores, 'reading'), lt(restores.heartbeatAt, staleBefore)),
            ),
          ),
        )
        .returning();
      return row && { row, resumed: row.attempts > 1 || row.status !== 'reading' };
    },

    async staleRestores(before: Date): Promise<string[]> {
      const rows = await db
        .select({ id: restores.id })
        .from(restores)
        .where(
          and(
            inArray(restores.status, ACTIVE_RESTORE),
            taken(restores, 'reading'),
            lt(restores.heartbeatAt, before),
          ),
        );
      return rows.map((row) => row.id);
    },

    async backupById(id: string): Promise<BackupRow | undefined> {
      const [row] = await db.select().from(backups).where(eq(backups.id, id));
      return row;
    },

    async restoreById(id: string): Promise<RestoreRow | undefined> {
      const [row] = await db.select().from(restores).where(eq(restores.id, id));
      return row;
    },

    /**
     * The restores of these ids whose volumes must stay: still at work, or ended with the live data in one of them
     * (kept for an operator). The engine's volumes of the others are leftovers.
     */
    async restoresKeepingVolumes(ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: restores.id })
        .from(restores)
        .where(
          and(
            inArray(restores.id, ids),
            or(inArray(restores.status, ACTIVE_RESTORE), sql`${restores.plan}->>'keptForOperator' = 'true'`),
          ),
        );
      return new Set(rows.map((row) => row.id));
    },

    async restoreActive(id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: restores.id })
        .from(restores)
        .where(and(eq(restores.id, id), inArray(restores.status, ACTIVE_RESTORE)));
      return row !== undefined;
    },

    async beat(kind: 'backup' | 'restore', id: string, now: Date): Promise<void> {
      if (kind === 'backup') await db.update(backups).set({ heartbeatAt: now }).where(eq(backups.id, id));
      else await db.update(restores).set({ heartbeatAt: now }).where(eq(restores.id, id));
    },
  };
}
