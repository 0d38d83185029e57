import { and, asc, desc, eq, inArray, isNotNull, lt, lte, max, or, sql } from 'drizzle-orm';
import { DomainError } from '../domain/errors.js';
import type { StoredBackupPart } from '../infra/db/backupTables.js';
import type { Db } from '../infra/db/client.js';
import { auditLog, backupSettings, backups, restores } from '../infra/db/schema.js';
import { ACTIVE_BACKUP, ACTIVE_RESTORE, createBackupRunRows } from './backupRunRows.js';

export type BackupSettingsRow = typeof backupSettings.$inferSelect;
export type BackupRow = typeof backups.$inferSelect;
export type RestoreRow = typeof restores.$inferSelect;
type SettingsValues = Partial<typeof backupSettings.$inferInsert>;

export const busy = (workspace: string) =>
  new DomainError(
    'conflict',
    `A backup or a restore of ${workspace} is running: wait for it to finish, then try again.`,
  );

/** The only code on `backup_settings`, `backups` and `restores`. */
export function createBackupsRepository(db: Db) {
  const runRows = createBackupRunRows(db);
  /**
   * Inserts the row that starts work on a workspace only while nothing else runs there: the settings row is
   * locked for the check and the insert, so two clicks (or two replicas) start one backup or restore.
   */
  async function exclusively<T>(workspaceId: string, workspace: string, insert: (tx: Db) => Promise<T>) {
    return db.transaction(async (tx) => {
      await tx
        .select({ id: backupSettings.workspaceId })
        .from(backupSettings)
        .where(eq(backupSettings.workspaceId, workspaceId))
        .for('update');
      const [backup] = await tx
        .select({ id: backups.id })
        .from(backups)
        .where(and(eq(backups.workspaceId, workspaceId), inArray(backups.status, ACTIVE_BACKUP)))
        .limit(1);
      const [restore] = await tx
        .select({ id: restores.id })
        .from(restores)
        .where(and(eq(restores.workspaceId, workspaceId), inArray(restores.status, ACTIVE_RESTORE)))
        .limit(1);
      if (backup || restore) throw busy(workspace);
      return insert(tx as unknown as Db);
    });
  }

  return {
    ...runRows,
    async settings(workspaceId: string): Promise<BackupSettingsRow | undefined> {
      const [row] = await db.select().from(backupSettings).where(eq(backupSettings.workspaceId, workspaceId));
      return row;
    },

    /** Inserts the settings unless another request made them first; answers the row that holds. */
    async insertSettings(values: typeof backupSettings.$inferInsert): Promise<BackupSettingsRow> {
      await db.insert(backupSettings).values(values).onConflictDoNothing();
      const [row] = await db
        .select()
        .from(backupSettings)
        .where(eq(backupSettings.workspaceId, values.workspaceId));
      return row!;
    },

    async updateSettings(workspaceId: string, values: SettingsValues): Promise<BackupSettingsRow> {
      const [row] = await db
        .update(backupSettings)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(backupSettings.workspaceId, workspaceId))
        .returning();
      return row!;
    },

    /** The ids of the workspaces that have settings (the scheduler makes the missing ones). */
    async workspacesWithSettings(): Promise<Set<string>> {
      const rows = await db.select({ workspaceId: backupSettings.workspaceId }).from(backupSettings);
      return new Set(rows.map((row) => row.workspaceId));
    },

    /** Each workspace's newest verified backup's time, in one query (the scheduler's missed check). */
    async latestVerifiedAt(): Promise<Map<string, Date>> {
      const rows = await db
        .select({ workspaceId: backups.workspaceId, at: max(backups.verifiedAt) })
        .from(backups)
        .where(eq(backups.status, 'verified'))
        .groupBy(backups.workspaceId);
      return new Map(rows.flatMap((row) => (row.at ? [[row.workspaceId, new Date(row.at)] as const] : [])));
    },

    enabledSettings(): Promise<BackupSettingsRow[]> {
      return db.select().from(backupSettings).where(eq(backupSettings.enabled, true));
    },

    dueSettings(now: Date): Promise<BackupSettingsRow[]> {
      return db
        .select()
        .from(backupSettings)
        .where(
          and(
            eq(backupSettings.enabled, true),
            isNotNull(backupSettings.nextBackupAt),
            lte(backupSettings.nextBackupAt, now),
          ),
        );
    },

    /**
     * Starts a backup row unless a backup or restore runs; a `safety` backup runs inside its restore, in the
     * repository named by `repository` (its own).
     */
    startBackup(
      workspaceId: string,
      workspace: string,
      trigger: string,
      now: Date,
      repository: string | null = null,
    ): Promise<BackupRow> {
      const insert = async (tx: Db) => {
        const [row] = await tx
          .insert(backups)
          .values({ workspaceId, status: 'running', trigger, repository, startedAt: now, heartbeatAt: now })
          .returning();
        return row!;
      };
      return trigger === 'safety' ? insert(db) : exclusively(workspaceId, workspace, insert);
    },

    /** Safety backups of a workspace, newest first (a few are kept; the older ones' repositories go). */
    safetyBackups(workspaceId: string): Promise<BackupRow[]> {
      return db
        .select()
        .from(backups)
        .where(and(eq(backups.workspaceId, workspaceId), eq(backups.trigger, 'safety')))
        .orderBy(desc(backups.startedAt));
    },

    /**
     * The verified backup read back longest ago (or never), among those not read back since `before`: what the
     * re-check of old backups reads next.
     */
    async nextToRecheck(before: Date): Promise<BackupRow | undefined> {
      const [row] = await db
        .select()
        .from(backups)
        .where(
          and(
            eq(backups.status, 'verified'),
            or(sql`${backups.recheckedAt} is null`, lt(backups.recheckedAt, before)),
            lt(backups.verifiedAt, before),
          ),
        )
        .orderBy(sql`${backups.recheckedAt} asc nulls first`, asc(backups.startedAt))
        .limit(1);
      return row;
    },

    /** Whether a restore of the workspace runs (deployments wait for it). */
    async restoreRunning(workspaceId: string): Promise<boolean> {
      const [restore] = await db
        .select({ id: restores.id })
        .from(restores)
        .where(and(eq(restores.workspaceId, workspaceId), inArray(restores.status, ACTIVE_RESTORE)))
        .limit(1);
      return restore !== undefined;
    },

    startRestore(
      values: Pick<typeof restores.$inferInsert, 'workspaceId' | 'backupId' | 'services'>,
      workspace: string,
      now: Date,
    ): Promise<RestoreRow> {
      return exclusively(values.workspaceId, workspace, async (tx) => {
        const [row] = await tx
          .insert(restores)
          .values({ ...values, status: 'reading', startedAt: now, heartbeatAt: now })
          .returning();
        return row!;
      });
    },

    listBackups(workspaceId: string): Promise<BackupRow[]> {
      return db
        .select()
        .from(backups)
        .where(eq(backups.workspaceId, workspaceId))
        .orderBy(desc(backups.startedAt));
    },

    async findBackup(workspaceId: string, id: string): Promise<BackupRow | undefined> {
      const [row] = await db
        .select()
        .from(backups)
        .where(and(eq(backups.workspaceId, workspaceId), eq(backups.id, id)));
      return row;
    },

    /** Verified backups, newest first: what retention chooses from and a restore may use. */
    verifiedBackups(workspaceId: string): Promise<BackupRow[]> {
      return db
        .select()
        .from(backups)
        .where(and(eq(backups.workspaceId, workspaceId), eq(backups.status, 'verified')))
        .orderBy(desc(backups.startedAt));
    },

    async updateBackup(id: string, values: Partial<typeof backups.$inferInsert>): Promise<BackupRow> {
      const [row] = await db.update(backups).set(values).where(eq(backups.id, id)).returning();
      return row!;
    },

    /** Records a part as soon as it is in the repository, so a crash leaves its snapshot id known. */
    async addPart(id: string, parts: StoredBackupPart[], now: Date): Promise<void> {
      await db
        .update(backups)
        .set({
          parts,
          sizeBytes: parts.reduce((sum, part) => sum + part.sizeBytes, 0),
          addedBytes: parts.reduce((sum, part) => sum + part.addedBytes, 0),
          heartbeatAt: now,
        })
        .where(eq(backups.id, id));
    },

    async deleteBackups(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.delete(backups).where(inArray(backups.id, ids));
    },

    /** Failed backups older than `before` (their snapshots were removed when they failed): only rows go. */
    async deleteFailedBefore(workspaceId: string, before: Date): Promise<void> {
      await db
        .delete(backups)
        .where(
          and(
            eq(backups.workspaceId, workspaceId),
            eq(backups.status, 'failed'),
            lt(backups.startedAt, before),
          ),
        );
    },

    /** An entry of the audit trail (a key export): append-only, read by the admin panel. */
    async audit(actor: string, action: string, target: string, detail: Record<string, unknown>) {
      await db.insert(auditLog).values({ actor, action, target, detail });
    },

    async findRestore(workspaceId: string, id: string): Promise<RestoreRow | undefined> {
      const [row] = await db
        .select()
        .from(restores)
        .where(and(eq(restores.workspaceId, workspaceId), eq(restores.id, id)));
      return row;
    },

    async latestRestore(workspaceId: string): Promise<RestoreRow | undefined> {
      const [row] = await db
        .select()
        .from(restores)
        .where(eq(restores.workspaceId, workspaceId))
        .orderBy(desc(restores.startedAt))
        .limit(1);
      return row;
    },

    async updateRestore(id: string, values: Partial<typeof restores.$inferInsert>): Promise<RestoreRow> {
      const [row] = await db.update(restores).set(values).where(eq(restores.id, id)).returning();
      return row!;
    },
  };
}

export type BackupsRepository = ReturnType<typeof createBackupsRepository>;
