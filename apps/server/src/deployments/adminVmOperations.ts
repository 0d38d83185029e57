import { DomainError } from '../domain/errors.js';
import { removeProjectResources } from '../infra/docker/projectResources.js';
import type { VmRow } from '../vm-providers/vmProvider.js';
import { unpublishRoutes } from './publishedRoutes.js';
import type { WorkflowDeps } from './runState.js';

/** What the admin panel may do to VMs: ask the provider for a VM's state, or tear a VM and its workspaces down. */
export function createAdminVmOperations(deps: WorkflowDeps) {
  return {
    describeVm: async (vm: VmRow) => (await deps.vmProvider.describe(vm)).status,
    deleteVm: async (name: string) => {
      const vm = await deps.workspaces.findVmByName(name);
      if (!vm) throw new DomainError('not_found', `VM ${name} not found`);
      const target = await deps.vmProvider.connect(vm).catch(() => undefined);
      for (const workspace of await deps.workspaces.listOnVm(vm.id)) {
        if (target)
          await removeProjectResources(target.docker, workspace.id, { volumes: true, images: true });
        await unpublishRoutes(deps, workspace.id).catch(() => {});
        await deps.workspaces.update(workspace.id, { status: 'vm_deleted', vmId: null });
      }
      await target?.close().catch(() => {});
      await deps.vmProvider.delete(vm);
    },
  };
}
