import { DomainError } from '../domain/errors.js';
import { removeProjectResources } from '../infra/docker/projectResources.js';
import { closeTarget, type VmRow } from '../vm-providers/vmProvider.js';
import type { DeploymentDeps } from './deploymentDeps.js';
import { connectForCleanUp } from './engineConnection.js';
import { removeRoutes } from './leftovers.js';

/** What the admin panel may do to VMs: ask the provider for a VM's state, or tear a VM and its workspaces down. */
export function createAdminVmOperations(deps: DeploymentDeps) {
  return {
    describeVm: async (vm: VmRow) => (await deps.vmProvider.describe(vm)).status,
    deleteVm: async (name: string) => {
      const vm = await deps.workspaces.findVmByName(name);
      if (!vm) throw new DomainError('not_found', `VM ${name} not found`);
      const target = await connectForCleanUp(deps, vm);
      for (const workspace of await deps.workspaces.listOnVm(vm.id)) {
        if (target)
          await removeProjectResources(target.docker, workspace.id, { volumes: true, images: true });
        await removeRoutes(deps, workspace.id, 'VM deletion');
        await deps.workspaces.update(workspace.id, { status: 'vm_deleted', vmId: null });
      }
      await closeTarget(target);
      await deps.vmProvider.delete(vm);
    },
  };
}
