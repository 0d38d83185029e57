import { PREVIEW_DEFAULTS, type PreviewSettings } from '@slipway/contract';
import { and, asc, desc, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { previewSettings, previews, workspaces } from '../infra/db/schema.js';

export type PreviewRow = typeof previews.$inferSelect;
type PreviewValues = Partial<typeof previews.$inferInsert>;

/** Previews that take a slot: deploying or serving. */
export const RUNNING_STATES = ['deploying', 'live'];

/** The only code on `previews` and `preview_settings`. */
export function createPreviewsRepository(db: Db) {
  return {
    async settings(workspaceId: string): Promise<PreviewSettings> {
      const [row] = await db
        .select()
        .from(previewSettings)
        .where(eq(previewSettings.workspaceId, workspaceId));
      if (!row) return { ...PREVIEW_DEFAULTS };
      return {
        enabled: row.enabled,
        vm_size: row.vmSize as PreviewSettings['vm_size'],
        max_running: row.maxRunning,
        inactivity_days: row.inactivityDays,
      };
    },

    async saveSettings(workspaceId: string, settings: PreviewSettings): Promise<void> {
      const values = {
        enabled: settings.enabled,
        vmSize: settings.vm_size,
        maxRunning: settings.max_running,
        inactivityDays: settings.inactivity_days,
        updatedAt: new Date(),
      };
      await db
        .insert(previewSettings)
        .values({ workspaceId, ...values })
        .onConflictDoUpdate({ target: previewSettings.workspaceId, set: values });
    },

    /** The workspaces of owner/repo (GitHub's names are case-insensitive) with previews on; never a preview itself. */
    enabledParentsOf(owner: string, repo: string) {
      return db
        .select({ workspace: workspaces })
        .from(workspaces)
        .innerJoin(previewSettings, eq(previewSettings.workspaceId, workspaces.id))
        .where(
          and(
            eq(previewSettings.enabled, true),
            sql`${workspaces.previewOf} is null`,
            sql`lower(${workspaces.repoOwner}) = lower(${owner})`,
            sql`lower(${workspaces.repoName}) = lower(${repo})`,
          ),
        )
        .then((rows) => rows.map((row) => row.workspace));
    },

    /**
     * The workspaces of owner/repo that have previews, whether previews are on or not: a pull request that closes
     * takes its preview with it even after previews were turned off (they stay only until then).
     */
    parentsWithPreviewsOf(owner: string, repo: string) {
      return db
        .selectDistinct({ workspace: workspaces })
        .from(workspaces)
        .innerJoin(previews, eq(previews.parentId, workspaces.id))
        .where(
          and(
            sql`lower(${workspaces.repoOwner}) = lower(${owner})`,
            sql`lower(${workspaces.repoName}) = lower(${repo})`,
          ),
        )
        .then((rows) => rows.map((row) => row.workspace));
    },

    /**
     * The workspaces whose local refs the branch watcher reads: those with previews on, and those with previews
     * still running after previews were turned off (`previewsOn` false: only their pull requests' closing counts).
     */
    async watchedParents(): Promise<(typeof workspaces.$inferSelect & { previewsOn: boolean })[]> {
      const rows = await db
        .select({ workspace: workspaces, enabled: previewSettings.enabled })
        .from(workspaces)
        .innerJoin(previewSettings, eq(previewSettings.workspaceId, workspaces.id))
        .where(
          and(
            sql`${workspaces.previewOf} is null`,
            sql`(${previewSettings.enabled} or exists (select 1 from ${previews} where ${previews.parentId} = ${workspaces.id}))`,
          ),
        );
      return rows.map((row) => ({ ...row.workspace, previewsOn: row.enabled }));
    },

    async find(parentId: string, number: number): Promise<PreviewRow | undefined> {
      const [row] = await db
        .select()
        .from(previews)
        .where(and(eq(previews.parentId, parentId), eq(previews.number, number)));
      return row;
    },

    async findById(id: string): Promise<PreviewRow | undefined> {
      const [row] = await db.select().from(previews).where(eq(previews.id, id));
      return row;
    },

    async findByWorkspace(workspaceId: string): Promise<PreviewRow | undefined> {
      const [row] = await db.select().from(previews).where(eq(previews.workspaceId, workspaceId));
      return row;
    },

    listOf(parentId: string): Promise<PreviewRow[]> {
      return db.select().from(previews).where(eq(previews.parentId, parentId)).orderBy(desc(previews.number));
    },

    /** Every preview, the oldest pull request first: a slot that frees goes to the one waiting longest. */
    listAll(): Promise<PreviewRow[]> {
      return db.select().from(previews).orderBy(asc(previews.number), asc(previews.createdAt));
    },

    async countRunning(parentId: string, except: string): Promise<number> {
      const rows = await db
        .select({ id: previews.id })
        .from(previews)
        .where(
          and(
            eq(previews.parentId, parentId),
            ne(previews.id, except),
            inArray(previews.state, RUNNING_STATES),
          ),
        );
      return rows.length;
    },

    async insert(values: typeof previews.$inferInsert): Promise<PreviewRow> {
      const [row] = await db.insert(previews).values(values).returning();
      return row!;
    },

    async update(id: string, values: PreviewValues): Promise<PreviewRow | undefined> {
      const [row] = await db
        .update(previews)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(previews.id, id))
        .returning();
      return row;
    },

    async delete(id: string): Promise<void> {
      await db.delete(previews).where(eq(previews.id, id));
    },

    /** Previews quiet since before `before`, not already on their way out. */
    idleSince(parentId: string, before: Date): Promise<PreviewRow[]> {
      return db
        .select()
        .from(previews)
        .where(
          and(
            eq(previews.parentId, parentId),
            lt(previews.lastActivityAt, before),
            ne(previews.state, 'removing'),
          ),
        );
    },

    /** Parents that have previews, with their settings, for the sweep. */
    parentsWithPreviews(): Promise<string[]> {
      return db
        .selectDistinct({ parentId: previews.parentId })
        .from(previews)
        .where(isNotNull(previews.parentId))
        .then((rows) => rows.map((row) => row.parentId));
    },
  };
}

export type PreviewsRepository = ReturnType<typeof createPreviewsRepository>;
