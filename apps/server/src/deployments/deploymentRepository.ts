import { DEPLOYMENT_STEPS } from '@slipway/contract';
import { and, count, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { deployments, type StepRecord } from '../infra/db/schema.js';

export type DeploymentRow = typeof deployments.$inferSelect;

export const ACTIVE_STATUSES = ['queued', 'running'];
/** Deployment statuses that mean "this version went live". */
const SUCCEEDED = ['succeeded', 'completed'];

export function initialSteps(): StepRecord[] {
  return DEPLOYMENT_STEPS.map((step) => ({
    name: step.name,
    title: step.name,
    description: step.description,
    status: 'pending',
    startedAt: null,
    finishedAt: null,
    error: null,
  }));
}

/** PostgreSQL (and PGlite) report a unique violation as SQLSTATE 23505, sometimes on a wrapped cause. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === '23505') {
      return !constraint || name === constraint || Boolean(message?.includes(constraint));
    }
  }
  return false;
}

/** A heartbeat older than `before` (or none, on a row older than it). */
const beatBefore = (before: Date) =>
  or(
    lt(deployments.heartbeatAt, before),
    and(isNull(deployments.heartbeatAt), lt(deployments.createdAt, before)),
  );

export function createDeploymentRepository(db: Db) {
  return {
    async insert(values: typeof deployments.$inferInsert): Promise<DeploymentRow> {
      const [row] = await db.insert(deployments).values(values).returning();
      return row!;
    },

    async findById(id: string): Promise<DeploymentRow | undefined> {
      const [row] = await db.select().from(deployments).where(eq(deployments.id, id));
      return row;
    },

    async findBySession(userId: string, sessionId: string): Promise<DeploymentRow | undefined> {
      const [row] = await db
        .select()
        .from(deployments)
        .where(and(eq(deployments.userId, userId), eq(deployments.sessionId, sessionId)));
      return row;
    },

    /** Deployments created since `since`, and how many of them failed (the admin panel's recent jobs). */
    async countSince(since: Date): Promise<{ total: number; failed: number }> {
      const recent = gte(deployments.createdAt, since);
      const [all, failed] = await Promise.all([
        db.select({ n: count() }).from(deployments).where(recent),
        db
          .select({ n: count() })
          .from(deployments)
          .where(and(recent, eq(deployments.status, 'failed'))),
      ]);
      return { total: Number(all[0]?.n ?? 0), failed: Number(failed[0]?.n ?? 0) };
    },

    /** The versions that went live in these workspaces, newest first (`at`: when it finished, or was created). */
    async succeededIn(workspaceIds: string[]) {
      if (workspaceIds.length === 0) return [];
      const at = sql<string | Date>`coalesce(${deployments.finishedAt}, ${deployments.createdAt})`;
      return db
        .select({
          id: deployments.id,
          workspaceId: deployments.workspaceId,
          commitSha: deployments.commitSha,
          branch: deployments.branch,
          at,
        })
        .from(deployments)
        .where(and(inArray(deployments.workspaceId, workspaceIds), inArray(deployments.status, SUCCEEDED)))
        .orderBy(desc(at));
    },

    async latestForWorkspace(userId: string, workspaceName: string): Promise<DeploymentRow | undefined> {
      const [row] = await db
        .select()
        .from(deployments)
        .where(and(eq(deployments.userId, userId), eq(deployments.workspaceName, workspaceName)))
        .orderBy(desc(deployments.createdAt))
        .limit(1);
      return row;
    },

    async completedForWorkspace(workspaceId: string): Promise<DeploymentRow[]> {
      return db
        .select()
        .from(deployments)
        .where(and(eq(deployments.workspaceId, workspaceId), eq(deployments.status, 'completed')))
        .orderBy(desc(deployments.finishedAt));
    },

    /** The workspaces with a deployment queued or running, in one query: `{userId, workspaceName}` each. */
    async activeWorkspaces(): Promise<{ userId: string; workspaceName: string }[]> {
      return db
        .selectDistinct({ userId: deployments.userId, workspaceName: deployments.workspaceName })
        .from(deployments)
        .where(inArray(deployments.status, ACTIVE_STATUSES));
    },

    async activeForWorkspace(userId: string, workspaceName: string): Promise<DeploymentRow | undefined> {
      const [row] = await db
        .select()
        .from(deployments)
        .where(
          and(
            eq(deployments.userId, userId),
            eq(deployments.workspaceName, workspaceName),
            inArray(deployments.status, ACTIVE_STATUSES),
          ),
        )
        .limit(1);
      return row;
    },

    async update(id: string, values: Partial<typeof deployments.$inferInsert>): Promise<DeploymentRow> {
      const [row] = await db.update(deployments).set(values).where(eq(deployments.id, id)).returning();
      return row!;
    },

    /** Moves a deployment from one status to another only if it is still in `from`: one winner per transition. */
    async transition(
      id: string,
      from: string[],
      values: Partial<typeof deployments.$inferInsert>,
    ): Promise<DeploymentRow | undefined> {
      const [row] = await db
        .update(deployments)
        .set(values)
        .where(and(eq(deployments.id, id), inArray(deployments.status, from)))
        .returning();
      return row;
    },

    async heartbeat(id: string, now = new Date()) {
      await db.update(deployments).set({ heartbeatAt: now }).where(eq(deployments.id, id));
    },

    /** Running deployments whose process stopped beating before `before`: their worker died. */
    async stale(before: Date): Promise<DeploymentRow[]> {
      return db
        .select()
        .from(deployments)
        .where(and(eq(deployments.status, 'running'), beatBefore(before)));
    },

    /** Takes a running deployment whose heartbeat stopped before `staleBefore`: one caller wins. */
    async takeStale(id: string, now: Date, staleBefore: Date): Promise<DeploymentRow | undefined> {
      const [row] = await db
        .update(deployments)
        .set({ heartbeatAt: now })
        .where(and(eq(deployments.id, id), eq(deployments.status, 'running'), beatBefore(staleBefore)))
        .returning();
      return row;
    },

    async deleteForWorkspace(userId: string, workspaceName: string) {
      await db
        .delete(deployments)
        .where(and(eq(deployments.userId, userId), eq(deployments.workspaceName, workspaceName)));
    },
  };
}

export type DeploymentRepository = ReturnType<typeof createDeploymentRepository>;
