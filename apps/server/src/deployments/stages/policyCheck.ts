import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { checkReplicas } from '../../compose-policy/replicaPolicy.js';
import type { WorkspaceRow } from '../../workspaces/workspacesRepository.js';
import { refuseViolations } from './composeChecks.js';
import type { Project } from './project.js';

type Obj = Record<string, unknown>;

/**
 * Refuses a project that would escape its sandbox, naming the service and key, before anything runs. The rules
 * (compose-policy/composePolicy.ts, dockerfilePolicy.ts, the repository jail) ran in the check worker while the
 * project was detected; this step reports them, with the replicas' (replicaPolicy.ts: they need the workspace's
 * VM size and its stored counts, and cost nothing). Returns the containers each active service runs.
 */
export function policyCheck(
  project: Project,
  workspace: WorkspaceRow,
  log: (line: string) => void,
): Record<string, number> {
  const all = (project.normalized.services ?? {}) as Record<string, Obj>;
  const active = Object.fromEntries(
    project.services.filter((s) => !s.inactive).flatMap((s) => (all[s.name] ? [[s.name, all[s.name]!]] : [])),
  );
  const size = findVmSize(workspace.vmSize) ?? findVmSize(DEFAULT_VM_SIZE)!;
  const { replicas, violations } = checkReplicas(active, {
    overrides: workspace.serviceReplicas ?? {},
    vm: { name: size.name, vcpus: size.vcpus, memoryMb: size.memoryMb },
  });
  refuseViolations(log, [...project.violations, ...violations]);
  for (const [service, count] of Object.entries(replicas)) {
    if (count > 1) log(`${service} runs ${count} replicas`);
  }
  log('The compose configuration follows the sandbox rules');
  return replicas;
}
