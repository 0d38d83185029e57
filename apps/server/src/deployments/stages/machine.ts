import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { warmCheckWorkers } from '../../compose-policy/checkWorkerPool.js';
import type { RolloutEngine } from '../../rollout/engine.js';
import { closeTarget, type DockerTarget, type VmRow } from '../../vm-providers/vmProvider.js';
import type { WorkspaceRow } from '../../workspaces/workspacesRepository.js';
import type { DeploymentDeps } from '../deploymentDeps.js';

/** The workspace's VM, the connection to its engine, and the engine that runs its versions there. */
export interface Machine {
  vm: VmRow;
  target: DockerTarget;
  engine: RolloutEngine;
}

/**
 * Creates (or finds) the workspace's VM and connects to its Docker Engine. A redeploy reuses the VM. The caller
 * closes the machine's connection when the run ends; a machine not reached is closed here.
 */
export async function provisionMachine(
  deps: Pick<DeploymentDeps, 'vmProvider' | 'workspaces' | 'engineFor'>,
  workspace: WorkspaceRow,
  run: { log: (line: string) => void; signal: AbortSignal },
): Promise<Machine> {
  // The compose checks run in a worker thread; starting one now hides its start-up behind the clone.
  warmCheckWorkers();
  const size = findVmSize(workspace.vmSize) ?? findVmSize(DEFAULT_VM_SIZE)!;
  run.log(`Preparing ${deps.vmProvider.name} VM (${size.specs}) for ${workspace.name}`);
  const vm = await deps.vmProvider.ensure(workspace, size, { signal: run.signal });
  if (workspace.vmId !== vm.id) await deps.workspaces.update(workspace.id, { vmId: vm.id });
  const target = await deps.vmProvider.connect(vm);
  const engine = deps.engineFor(target, workspace);
  try {
    run.log(`VM ${vm.name} is ready (${await engine.ready()})`);
  } catch (error) {
    await closeTarget(target);
    throw error;
  }
  return { vm, target, engine };
}
