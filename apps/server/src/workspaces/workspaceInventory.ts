import { count, desc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { workspaces } from '../infra/db/schema.js';
import type { UsersRepository } from '../users/usersRepository.js';
import { LIVE_STATUS, type WorkspaceRow } from './workspacesRepository.js';

/** The admin panel's reads across every user's workspaces: counts, names per VM, owners. */
export function createWorkspaceInventory(db: Db, users: UsersRepository) {
  /** The logins of the rows' owners; a row whose owner is gone is left out. */
  async function withOwners<Row extends { userId: string }>(rows: Row[]) {
    const logins = await users.loginsByIds([...new Set(rows.map((row) => row.userId))]);
    return rows.flatMap((row) => {
      const owner = logins.get(row.userId);
      return owner === undefined ? [] : [{ row, owner }];
    });
  }
  return {
    async counts(): Promise<{ total: number; live: number }> {
      const [row] = await db
        .select({
          total: count(),
          live: sql<number>`count(*) filter (where ${workspaces.status} = ${LIVE_STATUS})`,
        })
        .from(workspaces);
      return { total: Number(row?.total ?? 0), live: Number(row?.live ?? 0) };
    },

    /** Each VM's workspace names, sorted and joined by ", ". */
    async namesByVm(): Promise<Map<string, string>> {
      const rows = await db
        .select({
          vmId: workspaces.vmId,
          names: sql<string>`string_agg(${workspaces.name}, ', ' order by ${workspaces.name})`,
        })
        .from(workspaces)
        .where(sql`${workspaces.vmId} is not null`)
        .groupBy(workspaces.vmId);
      return new Map(rows.map((row) => [row.vmId!, row.names]));
    },

    /** Every workspace with its owner's login, most recently updated first. */
    async listWithOwners(): Promise<{ workspace: WorkspaceRow; owner: string }[]> {
      const rows = await db.select().from(workspaces).orderBy(desc(workspaces.updatedAt));
      return (await withOwners(rows)).map(({ row, owner }) => ({ workspace: row, owner }));
    },

    /** Workspace name and owner login for each workspace id, in one query. */
    async namesAndOwners(ids: string[]): Promise<Map<string, { name: string; owner: string }>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: workspaces.id, name: workspaces.name, userId: workspaces.userId })
        .from(workspaces)
        .where(inArray(workspaces.id, ids));
      return new Map((await withOwners(rows)).map(({ row, owner }) => [row.id, { name: row.name, owner }]));
    },
  };
}

export type WorkspaceInventory = ReturnType<typeof createWorkspaceInventory>;
