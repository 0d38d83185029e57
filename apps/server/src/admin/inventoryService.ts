import type { AdminStats, AdminVm, AdminWorkspace } from '@slipway/contract';
import type { DeploymentRepository } from '../deployments/deploymentRepository.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { UsersRepository } from '../users/usersRepository.js';
import type { VmRow } from '../vm-providers/vmProvider.js';
import type { VmRepository } from '../vm-providers/vmRepository.js';
import type { WorkspaceInventory } from '../workspaces/workspaceInventory.js';
import { LIVE_STATUS } from '../workspaces/workspacesRepository.js';
import { vmStatusText } from './presenters.js';

/** What the VM providers (the engine) may lend the admin panel; both are optional. */
export interface AdminVmOperations {
  /** The provider's live state of a VM ('running', 'stopped', ...); the stored status is used without it. */
  describeVm?: (vm: VmRow) => Promise<string>;
  /** Tears the VM and its workspaces down. */
  deleteVm?: (name: string) => Promise<void>;
}

const RECENT_JOBS_MS = 24 * 60 * 60 * 1000;
const VERSIONS_PER_WORKSPACE = 10;

/** Counts and lists of what runs on the platform: VMs, workspaces and their deployed versions. */
export function createInventoryService(deps: {
  users: Pick<UsersRepository, 'counts' | 'loginsByIds'>;
  vms: Pick<VmRepository, 'counts' | 'listNewestFirst' | 'findByName'>;
  deployments: Pick<DeploymentRepository, 'countSince' | 'succeededIn'>;
  workspaces: WorkspaceInventory;
  vmOperations?: AdminVmOperations;
}) {
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
      const [users, vms, workspaceCounts, jobs] = await Promise.all([
        deps.users.counts(),
        deps.vms.counts(),
        deps.workspaces.counts(),
        deps.deployments.countSince(since),
      ]);
      return {
        users: { total: users.total, whitelisted: users.whitelisted },
        vms: { running: vms.running, total: vms.total },
        workspaces: { total: workspaceCounts.total, active: workspaceCounts.live },
        jobs: { recent_total: jobs.total, recent_failed: jobs.failed },
      };
    },

    async listVms(): Promise<{ total_vms: number; vms: AdminVm[] }> {
      const [rows, workspaceNames] = await Promise.all([
        deps.vms.listNewestFirst(),
        deps.workspaces.namesByVm(),
      ]);
      const owners = [...new Set(rows.flatMap((vm) => (vm.userId ? [vm.userId] : [])))];
      const nodeOf = [...new Set(rows.flatMap((vm) => (vm.workspaceId ? [vm.workspaceId] : [])))];
      const [logins, nodeWorkspaces] = await Promise.all([
        deps.users.loginsByIds(owners),
        deps.workspaces.namesAndOwners(nodeOf),
      ]);
      // Node 1 is the workspace's own VM (`workspaces.vm_id`); nodes 2… name their workspace on their row.
      const workspaceOf = (vm: VmRow) =>
        workspaceNames.get(vm.id) ??
        (vm.workspaceId ? nodeWorkspaces.get(vm.workspaceId)?.name : undefined) ??
        null;
      const nodeNumber = (vm: VmRow) =>
        vm.workspaceId && vm.nodeIndex ? vm.nodeIndex : workspaceNames.has(vm.id) ? 1 : null;
      const list = await Promise.all(
        rows.map(
          async (vm): Promise<AdminVm> => ({
            vm_name: vm.name,
            username: (vm.userId && logins.get(vm.userId)) ?? null,
            workspace_name: workspaceOf(vm),
            status: vmStatusText(await liveVmState(vm)),
            size: vm.size,
            location: vm.location,
            private_ip: vm.privateIp,
            public_ip: vm.publicIp,
            created_at: vm.createdAt.toISOString(),
            node: nodeNumber(vm),
          }),
        ),
      );
      return { total_vms: list.length, vms: list };
    },

    async deleteVm(name: string) {
      const vm = await deps.vms.findByName(name);
      if (!vm) throw notFound(`VM ${name} not found`);
      if (!deps.vmOperations?.deleteVm) {
        throw new DomainError('unavailable', 'Deleting VMs is not available: no VM provider is connected');
      }
      await deps.vmOperations.deleteVm(name);
      return { success: true as const, message: `VM ${name} deleted` };
    },

    async listWorkspaces(): Promise<{ total_workspaces: number; workspaces: AdminWorkspace[] }> {
      const rows = await deps.workspaces.listWithOwners();
      const ids = rows.map((row) => row.workspace.id);
      const versions = await deps.deployments.succeededIn(ids);
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
