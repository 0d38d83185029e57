import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { warmCheckWorkers } from '../../infra/compose/checkWorkerPool.js';
import type { RunState } from '../runState.js';

/** Creates (or finds) the workspace's VM and connects to its Docker Engine. A redeploy reuses the VM. */
export async function provisionVm(state: RunState) {
  const { deps, workspace } = state;
  // The compose checks run in a worker thread; starting one now hides its start-up behind the clone.
  warmCheckWorkers();
  const size = findVmSize(workspace.vmSize) ?? findVmSize(DEFAULT_VM_SIZE)!;
  state.log.write(`Preparing ${deps.vmProvider.name} VM (${size.specs}) for ${workspace.name}`);
  const vm = await deps.vmProvider.ensure(workspace, size, { signal: state.signal });
  state.vm = vm;
  if (workspace.vmId !== vm.id) await deps.workspaces.update(workspace.id, { vmId: vm.id });
  state.target = await deps.vmProvider.connect(vm);
  await state.target.docker.ping();
  state.compose = await deps.compose();
  state.log.write(`VM ${vm.name} is ready (Compose ${state.compose.flavour})`);
}
