import type { DockerTarget, VmRow } from '../vm-providers/vmProvider.js';
import type { DeploymentDeps } from './deploymentDeps.js';

/**
 * The engine of a workspace's VM for a clean-up, or undefined when there is no VM or it cannot be reached (logged):
 * what needs the engine is skipped and the rest of the clean-up goes on.
 */
export async function connectForCleanUp(
  deps: Pick<DeploymentDeps, 'vmProvider' | 'logger'>,
  vm: VmRow | undefined,
): Promise<DockerTarget | undefined> {
  if (!vm) return undefined;
  return deps.vmProvider.connect(vm).catch((error) => {
    deps.logger.warn({ err: error, vm: vm.name }, "the VM's engine is unreachable; its clean-up is skipped");
    return undefined;
  });
}
