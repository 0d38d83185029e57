import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { envVariables } from '../infra/db/schema.js';
import { lockUserRow } from '../users/usersRepository.js';

export type EnvVariableRow = typeof envVariables.$inferSelect;

/** Rows of one user's workspace. Every query is scoped by (user, workspace): no call reaches another user's. */
export function createEnvVariablesRepository(db: Db) {
  const scope = (userId: string, workspaceName: string) =>
    and(eq(envVariables.userId, userId), eq(envVariables.workspaceName, workspaceName));

  return {
    async list(userId: string, workspaceName: string, tx: Db = db): Promise<EnvVariableRow[]> {
      return tx
        .select()
        .from(envVariables)
        .where(scope(userId, workspaceName))
        .orderBy(asc(envVariables.position), asc(envVariables.key));
    },

    /** Runs `work` holding the user's row lock, so two uploads cannot both pass the limits. */
    async withUserLock<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        await lockUserRow(tx, userId);
        return work(tx);
      });
    },

    async upsert(
      tx: Db,
      rows: { userId: string; workspaceName: string; key: string; valueEnc: string; position: number }[],
    ): Promise<void> {
      if (rows.length === 0) return;
      await tx
        .insert(envVariables)
        .values(rows)
        .onConflictDoUpdate({
          target: [envVariables.userId, envVariables.workspaceName, envVariables.key],
          set: { valueEnc: sql`excluded.value_enc`, updatedAt: new Date() },
        });
    },

    async deleteOne(userId: string, workspaceName: string, key: string): Promise<boolean> {
      const deleted = await db
        .delete(envVariables)
        .where(and(scope(userId, workspaceName), eq(envVariables.key, key)))
        .returning({ key: envVariables.key });
      return deleted.length > 0;
    },

    /** Whether previews get the variable, and their own value (undefined: unchanged); false when there is no such key. */
    async setPreviewShare(
      userId: string,
      workspaceName: string,
      key: string,
      values: { forPreviews?: boolean; previewValueEnc?: string | null },
    ): Promise<EnvVariableRow | undefined> {
      const [row] = await db
        .update(envVariables)
        .set({ ...values, updatedAt: new Date() })
        .where(and(scope(userId, workspaceName), eq(envVariables.key, key)))
        .returning();
      return row;
    },

    async deleteAll(userId: string, workspaceName: string): Promise<number> {
      const deleted = await db
        .delete(envVariables)
        .where(scope(userId, workspaceName))
        .returning({ key: envVariables.key });
      return deleted.length;
    },
  };
}

export type EnvVariablesRepository = ReturnType<typeof createEnvVariablesRepository>;
