import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { vms } from '../infra/db/schema.js';
import type { VmRow } from './vmProvider.js';

/** The `vms` rows every provider keeps: one per workspace VM, named after the workspace id. */
export function createVmRepository(db: Db) {
  return {
    async findByName(name: string): Promise<VmRow | undefined> {
      const [row] = await db.select().from(vms).where(eq(vms.name, name));
      return row;
    },
    /** Every VM, newest first. */
    async listNewestFirst(): Promise<VmRow[]> {
      return db.select().from(vms).orderBy(desc(vms.createdAt));
    },
    async counts(): Promise<{ total: number; running: number }> {
      const [all, running] = await Promise.all([
        db.select({ n: count() }).from(vms),
        db.select({ n: count() }).from(vms).where(eq(vms.status, 'running')),
      ]);
      return { total: Number(all[0]?.n ?? 0), running: Number(running[0]?.n ?? 0) };
    },
    /** The VMs of a workspace's nodes that exist, node 1 first. */
    listNodes(workspaceId: string): Promise<VmRow[]> {
      return db.select().from(vms).where(eq(vms.workspaceId, workspaceId)).orderBy(asc(vms.nodeIndex));
    },
    async findNode(workspaceId: string, nodeIndex: number): Promise<VmRow | undefined> {
      const [row] = await db
        .select()
        .from(vms)
        .where(and(eq(vms.workspaceId, workspaceId), eq(vms.nodeIndex, nodeIndex)));
      return row;
    },
    async findById(id: string): Promise<VmRow | undefined> {
      const [row] = await db.select().from(vms).where(eq(vms.id, id));
      return row;
    },
    async insert(values: typeof vms.$inferInsert): Promise<VmRow> {
      const [row] = await db.insert(vms).values(values).onConflictDoNothing({ target: vms.name }).returning();
      return row ?? (await this.findByName(values.name))!;
    },
    async update(id: string, values: Partial<typeof vms.$inferInsert>): Promise<VmRow> {
      const [row] = await db.update(vms).set(values).where(eq(vms.id, id)).returning();
      if (!row) throw new Error(`VM ${id} disappeared`);
      return row;
    },
    async remove(id: string): Promise<void> {
      await db.delete(vms).where(eq(vms.id, id));
    },
  };
}
export type VmRepository = ReturnType<typeof createVmRepository>;

export const vmNameFor = (provider: string, workspaceId: string) => `slipway-${provider}-${workspaceId}`;

/** Node 1's VM is named as a one-node workspace's always was; node N's after it with `-nN`. */
export const nodeVmNameFor = (provider: string, workspaceId: string, nodeIndex: number) =>
  nodeIndex === 1 ? vmNameFor(provider, workspaceId) : `${vmNameFor(provider, workspaceId)}-n${nodeIndex}`;
