import type { AdminStats, AdminVm, AdminWorkspace } from '@slipway/contract';
import { and, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { DomainError, notFound } from '../domain/errors.js';
import type { Db } from '../infra/db/client.js';
import { deployments, users, vms } from '../infra/db/schema.js';
import type { WorkspaceInventory } from '../workspaces/workspaceInventory.js';
import { LIVE_STATUS } from '../workspaces/workspacesRepository.js';
import { vmStatusText } from './presenters.js';

export type VmRow = typeof vms.$inferSelect;

/** What the VM providers (the engine) may lend the admin panel; both are optional. */
export interface AdminVmOperations {
  /** The provider's live state of a VM ('running', 'stopped', ...); the stored status is used without it. */
  describeVm?: (vm: VmRow) => Promise<string>;
  /** Tears the VM and its workspaces down. */
  deleteVm?: (name: string) => Promise<void>;
}

/** Deployment statuses that mean "this version went live". */
const SUCCEEDED = ['succeeded', 'completed'];
const RECENT_JOBS_MS = 24 * 60 * 60 * 1000;
const VERSIONS_PER_WORKSPACE = 10;

/** Counts and lists of what runs on the platform: VMs, workspaces and their deployed versions. */
export function createInventoryService(deps: {
  db: Db;
  workspaces: WorkspaceInventory;
  vmOperations?: AdminVmOperations;
}) {
  const { db } = deps;
  const total = async (query: Promise<{ n: number }[]>) => Number((await query)[0]?.n ?? 0);

  async function liveVmState(vm: VmRow): Promise<string> {
    if (!deps.vmOperations?.describeVm) return vm.status;
    try {
      return await deps.vmOperations.describeVm(vm);
    } catch {
      return 'unreachable';
    }
  }

  return {
    async stats(): Promise<AdminStats> {
      const since = new Date(Date.now() - RECENT_JOBS_MS);
      const [usersTotal, whitelisted, vmsTotal, vmsRunning, workspaceCounts, jobsTotal, jobsFailed] =
        await Promise.all([
          total(db.select({ n: count() }).from(users)),
          total(db.select({ n: count() }).from(users).where(eq(users.whitelisted, true))),
          total(db.select({ n: count() }).from(vms)),
          total(db.select({ n: count() }).from(vms).where(eq(vms.status, 'running'))),
          deps.workspaces.counts(),
          total(db.select({ n: count() }).from(deployments).where(gte(deployments.createdAt, since))),
          total(
            db
              .select({ n: count() })
              .from(deployments)
              .where(and(gte(deployments.createdAt, since), eq(deployments.status, 'failed'))),
          ),
        ]);
      return {
        users: { total: usersTotal, whitelisted },
        vms: { running: vmsRunning, total: vmsTotal },
        workspaces: { total: workspaceCounts.total, active: workspaceCounts.live },
        jobs: { recent_total: jobsTotal, recent_failed: jobsFailed },
      };
    },

    async listVms(): Promise<{ total_vms: number; vms: AdminVm[] }> {
      const [rows, workspaceNames] = await Promise.all([
        db
          .select({ vm: vms, username: users.login })
          .from(vms)
          .leftJoin(users, eq(users.id, vms.userId))
          .orderBy(desc(vms.createdAt)),
        deps.workspaces.namesByVm(),
      ]);
      const list = await Promise.all(
        rows.map(
          async ({ vm, username }): Promise<AdminVm> => ({
            vm_name: vm.name,
            username,
            workspace_name: workspaceNames.get(vm.id) ?? null,
            status: vmStatusText(await liveVmState(vm)),
            size: vm.size,
            location: vm.location,
            private_ip: vm.privateIp,
            public_ip: vm.publicIp,
            created_at: vm.createdAt.toISOString(),
          }),
        ),
      );
      return { total_vms: list.length, vms: list };
    },

    async deleteVm(name: string) {
      const [vm] = await db.select({ id: vms.id }).from(vms).where(eq(vms.name, name));
      if (!vm) throw notFound(`VM ${name} not found`);
      if (!deps.vmOperations?.deleteVm) {
        throw new DomainError('unavailable', 'Deleting VMs is not available: no VM provider is connected');
      }
      await deps.vmOperations.deleteVm(name);
      return { success: true, message: `VM ${name} deleted` };
    },

    async listWorkspaces(): Promise<{ total_workspaces: number; workspaces: AdminWorkspace[] }> {
      const rows = await deps.workspaces.listWithOwners();
      const ids = rows.map((row) => row.workspace.id);
      const versions =
        ids.length === 0
          ? []
          : await db
              .select({
                id: deployments.id,
                workspaceId: deployments.workspaceId,
                commitSha: deployments.commitSha,
                branch: deployments.branch,
                at: sql<string | Date>`coalesce(${deployments.finishedAt}, ${deployments.createdAt})`,
              })
              .from(deployments)
              .where(and(inArray(deployments.workspaceId, ids), inArray(deployments.status, SUCCEEDED)))
              .orderBy(desc(sql`coalesce(${deployments.finishedAt}, ${deployments.createdAt})`));
      const list = rows.map(
        ({ workspace: ws, owner: username }): AdminWorkspace => ({
          username,
          workspace_name: ws.name,
          created_at: ws.createdAt.toISOString(),
          updated_at: ws.updatedAt.toISOString(),
          service_urls: ws.serviceUrls,
          docker_image_name: ws.dockerImageName,
          log_watcher_status: ws.status === LIVE_STATUS ? 'active' : 'inactive',
          deployed_versions: versions
            .filter((v) => v.workspaceId === ws.id)
            .slice(0, VERSIONS_PER_WORKSPACE)
            .map((v) => ({
              deployment_id: v.id,
              commit_sha: v.commitSha,
              deployed_at: new Date(v.at).toISOString(),
              branch: v.branch,
            })),
        }),
      );
      return { total_workspaces: list.length, workspaces: list };
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
