import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { workspaces } from '../infra/db/schema.js';

/**
 * The deploy-on-push columns of `workspaces`: the switch, the pending mark a push leaves (the time of the last
 * push not yet deployed) and, in local mode, the branch head last acted on. Marks live in the database so every
 * replica sees the pushes any replica received. Kept here, with the table; deploy-on-push/ decides when to set them.
 */
export function createPushMarks(db: Db) {
  return {
    async setEnabled(workspaceId: string, enabled: boolean) {
      // A fresh start either way: no push from before counts, and the watcher compares with the last deployment.
      await db
        .update(workspaces)
        .set({ deployOnPush: enabled, pushPendingAt: null, pushSeenSha: null, updatedAt: new Date() })
        .where(eq(workspaces.id, workspaceId));
    },

    /** Marks every workspace that deploys `branch` of owner/repo on push; returns how many. */
    async markPushed(owner: string, repo: string, branch: string): Promise<number> {
      const rows = await db
        .update(workspaces)
        // Milliseconds, as JavaScript keeps them, so `claim` can compare the value it read.
        .set({ pushPendingAt: new Date() })
        .where(
          and(
            eq(workspaces.deployOnPush, true),
            // GitHub's owner and repository names are case-insensitive.
            sql`lower(${workspaces.repoOwner}) = lower(${owner})`,
            sql`lower(${workspaces.repoName}) = lower(${repo})`,
            eq(workspaces.branch, branch),
          ),
        )
        .returning({ id: workspaces.id });
      return rows.length;
    },

    /** Workspaces whose last push is at least as old as `settledBefore`. */
    due(settledBefore: Date) {
      return db
        .select()
        .from(workspaces)
        .where(
          and(
            eq(workspaces.deployOnPush, true),
            isNotNull(workspaces.pushPendingAt),
            lte(workspaces.pushPendingAt, settledBefore),
          ),
        );
    },

    /** Takes the mark if no push came since it was read: true for exactly one caller. */
    async claim(workspaceId: string, pendingAt: Date): Promise<boolean> {
      const rows = await db
        .update(workspaces)
        .set({ pushPendingAt: null })
        .where(and(eq(workspaces.id, workspaceId), eq(workspaces.pushPendingAt, pendingAt)))
        .returning({ id: workspaces.id });
      return rows.length === 1;
    },

    /** Puts a mark back (its deployment could not start yet). */
    async markPending(workspaceId: string) {
      await db.update(workspaces).set({ pushPendingAt: new Date() }).where(eq(workspaces.id, workspaceId));
    },

    /** Workspaces with deploy on push on, for the local branch-head watcher. */
    watched() {
      return db.select().from(workspaces).where(eq(workspaces.deployOnPush, true));
    },

    /** Records the branch head the watcher saw and, when it is new to the workspace, marks it pending. */
    async recordHead(workspaceId: string, sha: string, deploy: boolean) {
      await db
        .update(workspaces)
        .set(deploy ? { pushSeenSha: sha, pushPendingAt: new Date() } : { pushSeenSha: sha })
        .where(eq(workspaces.id, workspaceId));
    },
  };
}

export type PushMarks = ReturnType<typeof createPushMarks>;
