import { randomBytes } from 'node:crypto';
import { and, desc, eq, getTableColumns, gte, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { alerts } from '../infra/db/schema.js';

export type AlertRow = typeof alerts.$inferSelect;

export interface NewAlert {
  workspaceId: string;
  fingerprint: string;
  title: string;
  description: string;
  alertType: string;
  severity: 'critical' | 'error' | 'warning' | 'info';
  service: string | null;
}

const newAlertId = () => `alert_${randomBytes(10).toString('hex')}`;

/**
 * PostgreSQL's foreign_key_violation: the workspace row is gone (deleted while the alert was being raised), so
 * there is nothing to alert about. Drizzle may wrap the driver's error, so its causes are read too.
 */
function workspaceGone(error: unknown): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === '23503') return true;
  }
  return false;
}

export function createAlertsRepository(db: Db) {
  return {
    /**
     * Raises the alert, or, when one with the same fingerprint is already active (the partial unique index decides,
     * so replicas racing on the same failure still make one alert), gives that one this failure's title and
     * description: an open alert says what happened last. `created` tells the two apart. Nothing, when the
     * workspace is gone.
     */
    async raise(alert: NewAlert): Promise<{ row: AlertRow; created: boolean } | undefined> {
      try {
        const [row] = await db
          .insert(alerts)
          .values({ id: newAlertId(), ...alert, state: 'active' })
          .onConflictDoUpdate({
            target: [alerts.workspaceId, alerts.fingerprint],
            targetWhere: sql`state = 'active'`,
            set: { title: alert.title, description: alert.description, severity: alert.severity },
          })
          // xmax is 0 in a row this statement inserted, the updating transaction's id in one it updated.
          .returning({ ...getTableColumns(alerts), created: sql<boolean>`(xmax = 0)` });
        if (!row) return undefined;
        const { created, ...stored } = row;
        return { row: stored, created };
      } catch (error) {
        if (workspaceGone(error)) return undefined;
        throw error;
      }
    },

    /** An event rather than a failure (a restore done): stored already resolved, so it is history at once. */
    async record(alert: NewAlert): Promise<AlertRow | undefined> {
      const now = new Date();
      try {
        const [row] = await db
          .insert(alerts)
          .values({ id: newAlertId(), ...alert, state: 'resolved', resolvedAt: now, resolvedBy: 'system' })
          .returning();
        return row;
      } catch (error) {
        if (workspaceGone(error)) return undefined;
        throw error;
      }
    },

    /** Resolves the active alert with this fingerprint (recovery); returns it when there was one. */
    async resolveFingerprint(
      workspaceId: string,
      fingerprint: string,
      by: string,
    ): Promise<AlertRow | undefined> {
      const [row] = await db
        .update(alerts)
        .set({ state: 'resolved', resolvedAt: new Date(), resolvedBy: by })
        .where(
          and(
            eq(alerts.workspaceId, workspaceId),
            eq(alerts.fingerprint, fingerprint),
            eq(alerts.state, 'active'),
          ),
        )
        .returning();
      return row;
    },

    async active(workspaceId: string): Promise<AlertRow[]> {
      return db
        .select()
        .from(alerts)
        .where(and(eq(alerts.workspaceId, workspaceId), eq(alerts.state, 'active')))
        .orderBy(desc(alerts.triggeredAt));
    },

    /** Every workspace's active fingerprints, in one query (a pass over all workspaces). */
    async allActiveFingerprints(): Promise<Map<string, Set<string>>> {
      const rows = await db
        .select({ workspaceId: alerts.workspaceId, fingerprint: alerts.fingerprint })
        .from(alerts)
        .where(eq(alerts.state, 'active'));
      const byWorkspace = new Map<string, Set<string>>();
      for (const row of rows) {
        byWorkspace.set(
          row.workspaceId,
          (byWorkspace.get(row.workspaceId) ?? new Set()).add(row.fingerprint),
        );
      }
      return byWorkspace;
    },

    async activeFingerprints(workspaceId: string): Promise<Set<string>> {
      const rows = await db
        .select({ fingerprint: alerts.fingerprint })
        .from(alerts)
        .where(and(eq(alerts.workspaceId, workspaceId), eq(alerts.state, 'active')));
      return new Set(rows.map((row) => row.fingerprint));
    },

    async since(workspaceId: string, since: Date): Promise<AlertRow[]> {
      return db
        .select()
        .from(alerts)
        .where(and(eq(alerts.workspaceId, workspaceId), gte(alerts.triggeredAt, since)))
        .orderBy(desc(alerts.triggeredAt));
    },

    async findById(alertId: string): Promise<AlertRow | undefined> {
      const [row] = await db.select().from(alerts).where(eq(alerts.id, alertId));
      return row;
    },

    async acknowledge(alertId: string, by: string): Promise<AlertRow | undefined> {
      const [row] = await db
        .update(alerts)
        .set({ acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, now())`, acknowledgedBy: by })
        .where(eq(alerts.id, alertId))
        .returning();
      return row;
    },

    async resolve(alertId: string, by: string): Promise<AlertRow | undefined> {
      const [row] = await db
        .update(alerts)
        .set({ state: 'resolved', resolvedAt: new Date(), resolvedBy: by })
        .where(and(eq(alerts.id, alertId), eq(alerts.state, 'active')))
        .returning();
      return row;
    },
  };
}

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
