import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { apiTokens, auditLog } from '../infra/db/schema.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** The one owner of `api_tokens` (and of the audit entries it writes about them). */
export function createApiTokensRepository(db: Db) {
  return {
    async insert(values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
      const [row] = await db.insert(apiTokens).values(values).returning();
      return row!;
    },

    listForUser(userId: string): Promise<ApiTokenRow[]> {
      return db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(desc(apiTokens.createdAt));
    },

    /** Read from the database on every request, so a revoke counts on every replica at once. */
    async findByHash(tokenHash: string): Promise<ApiTokenRow | undefined> {
      const [row] = await db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash));
      return row;
    },

    async exists(id: string): Promise<boolean> {
      const [row] = await db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.id, id));
      return row !== undefined;
    },

    async delete(userId: string, id: string): Promise<ApiTokenRow | undefined> {
      const [row] = await db
        .delete(apiTokens)
        .where(and(eq(apiTokens.userId, userId), eq(apiTokens.id, id)))
        .returning();
      return row;
    },

    async touch(id: string, at: Date) {
      await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, id));
    },

    async audit(actor: string, action: string, target: string, detail: Record<string, unknown>) {
      await db.insert(auditLog).values({ actor, action, target, detail });
    },
  };
}

export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;
