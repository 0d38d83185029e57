import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { checkReplicas } from '../../infra/compose/replicaPolicy.js';
import { type RunState, StepFailure } from '../runState.js';
import { refuseViolations } from './composeChecks.js';

type Obj = Record<string, unknown>;

/**
 * Refuses a project that would escape its sandbox, naming the service and key, before anything runs. The rules
 * (infra/compose/composePolicy.ts, dockerfilePolicy.ts, the repository jail) ran in the check worker while the
 * project was detected; this step reports them, with the replicas' (replicaPolicy.ts: they need the workspace's
 * VM size and its stored counts, and cost nothing).
 */
export async function policyCheck(state: RunState) {
  if (!state.policyViolations) throw new StepFailure('The compose configuration was not checked');
  const all = (state.normalized?.services ?? {}) as Record<string, Obj>;
  const active = Object.fromEntries(
    state.services.filter((s) => !s.inactive).flatMap((s) => (all[s.name] ? [[s.name, all[s.name]!]] : [])),
  );
  const size = findVmSize(state.workspace.vmSize) ?? findVmSize(DEFAULT_VM_SIZE)!;
  const { replicas, violations } = checkReplicas(active, {
    overrides: state.workspace.serviceReplicas ?? {},
    vm: { name: size.name, vcpus: size.vcpus, memoryMb: size.memoryMb },
  });
  refuseViolations(state, [...state.policyViolations, ...violations]);
  state.replicas = replicas;
  for (const [service, count] of Object.entries(replicas)) {
    if (count > 1) state.log.write(`${service} runs ${count} replicas`);
  }
  state.log.write('The compose configuration follows the sandbox rules');
}
