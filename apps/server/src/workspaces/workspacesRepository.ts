import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { DomainError } from '../domain/errors.js';
import type { Db } from '../infra/db/client.js';
import { workspaces } from '../infra/db/schema.js';
import type { VmRow } from '../vm-providers/vmProvider.js';
import type { VmRepository } from '../vm-providers/vmRepository.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;

/** The status of a workspace whose containers run. */
export const LIVE_STATUS = 'live';

/** Statuses in which the workspace's containers are expected to run and be watched. */
export const WATCHED_STATUSES = [LIVE_STATUS];

/** The workspaces that should have routes in the ingress (rollout/publishedRoutes.ts writes them). */
const hasRoutes = () => sql`${workspaces.serviceUpstreams} <> '{}'::jsonb`;

export const workspaceNotFound = () => new DomainError('workspace_not_found', 'Workspace not found');

/**
 * Every workspace lookup on behalf of a user goes through `findOwned`: another user's name answers
 * exactly as a name that does not exist.
 */
export function createWorkspacesRepository(db: Db, vmRows: VmRepository) {
  return {
    async findOwned(userId: string, name: string): Promise<WorkspaceRow> {
      const [row] = await db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.userId, userId), eq(workspaces.name, name)));
      if (!row) throw workspaceNotFound();
      return row;
    },

    /** The workspace of (user, name), or undefined; {@link findOwned} when a missing one is an error. */
    async findByName(userId: string, name: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.userId, userId), eq(workspaces.name, name)));
      return row;
    },

    async findById(id: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
      return row;
    },

    /** The workspace of (user, name), created by its first deployment; later ones update branch and repository. */
    async upsert(values: typeof workspaces.$inferInsert): Promise<WorkspaceRow> {
      const [row] = await db
        .insert(workspaces)
        .values(values)
        .onConflictDoUpdate({
          target: [workspaces.userId, workspaces.name],
          set: { branch: values.branch, repoUrl: values.repoUrl, updatedAt: new Date() },
        })
        .returning();
      return row!;
    },

    async update(id: string, values: Partial<typeof workspaces.$inferInsert>): Promise<void> {
      await db
        .update(workspaces)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(workspaces.id, id));
    },

    async delete(id: string): Promise<void> {
      await db.delete(workspaces).where(eq(workspaces.id, id));
    },

    /** Workspaces that should have routes in the ingress (rollout/publishedRoutes.ts writes them). */
    listRouted(): Promise<WorkspaceRow[]> {
      return db.select().from(workspaces).where(hasRoutes());
    },

    /** The ids of the workspaces with routes: what the route check asks the proxy about. */
    async listRoutedIds(): Promise<string[]> {
      const rows = await db.select({ id: workspaces.id }).from(workspaces).where(hasRoutes());
      return rows.map((row) => row.id);
    },

    listOnVm(vmId: string): Promise<WorkspaceRow[]> {
      return db.select().from(workspaces).where(eq(workspaces.vmId, vmId));
    },

    /** The user's workspaces, without their previews (previews/ lists those under each workspace). */
    listForUser(userId: string): Promise<WorkspaceRow[]> {
      return db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.userId, userId), isNull(workspaces.previewOf)))
        .orderBy(desc(workspaces.createdAt));
    },

    listByStatus(status: string): Promise<WorkspaceRow[]> {
      return db.select().from(workspaces).where(eq(workspaces.status, status));
    },

    listWatched(): Promise<WorkspaceRow[]> {
      return db.select().from(workspaces).where(inArray(workspaces.status, WATCHED_STATUSES));
    },

    /** The VMs that host a workspace, each once (null: the local engine): what picks an engine, not the rows. */
    async listEngineVms(): Promise<Pick<WorkspaceRow, 'vmId'>[]> {
      return db.selectDistinct({ vmId: workspaces.vmId }).from(workspaces);
    },

    /** The workspace's VM record (vm-providers/ own the `vms` table). */
    async findVm(vmId: string | null): Promise<VmRow | undefined> {
      return vmId ? vmRows.findById(vmId) : undefined;
    },

    findVmByName(name: string): Promise<VmRow | undefined> {
      return vmRows.findByName(name);
    },

    async recordError(workspaceId: string, message: string, at: Date): Promise<void> {
      await db
        .update(workspaces)
        .set({ lastError: message, lastErrorTime: at })
        .where(eq(workspaces.id, workspaceId));
    },
  };
}

export type WorkspacesRepository = ReturnType<typeof createWorkspacesRepository>;
