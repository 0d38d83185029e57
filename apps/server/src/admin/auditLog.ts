import type { AuditLogEntry } from '@slipway/contract';
import { desc } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { auditLog } from '../infra/db/schema.js';

type AuditLogRow = typeof auditLog.$inferSelect;

export function presentAuditEntry(row: AuditLogRow): AuditLogEntry {
  return {
    id: row.id,
    actor: row.actor,
    action: row.action,
    target: row.target,
    detail: row.detail,
    at: row.at.toISOString(),
  };
}

/**
 * The admin panel's view of `audit_log`: the one reader of the table. Entries are written by the areas they
 * concern (api-tokens/ for tokens, impersonation.ts here); reading them is the admin's alone.
 */
export function createAuditLogReader(deps: { db: Db }) {
  return {
    /** The newest `limit` entries, newest first (by id: entries written in one instant keep their order). */
    async recent(limit: number): Promise<{ entries: AuditLogEntry[] }> {
      const rows = await deps.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
      return { entries: rows.map(presentAuditEntry) };
    },
  };
}

export type AuditLogReader = ReturnType<typeof createAuditLogReader>;
