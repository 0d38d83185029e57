import {
  DEFAULT_VM_SIZE,
  findVmSize,
  type ServiceReplicasRequest,
  type StartDeploymentResponse,
} from '@slipway/contract';
import { checkReplicas } from '../compose-policy/replicaPolicy.js';
import { DomainError } from '../domain/errors.js';
import type { RevisionPlans } from '../rollout/revisionPlans.js';
import type { UserRow } from '../users/usersRepository.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { Deploy } from './deploy.js';
import type { DeploymentRepository } from './deploymentRepository.js';
import { ownedWorkspace } from './ownedWorkspace.js';
import { startedAnswer } from './presenter.js';

type Obj = Record<string, unknown>;

/**
 * The Replicas control: a service with a URL runs 1–10 containers. The count is stored beside the workspace (it
 * overrides the Compose file's `deploy.replicas` from now on) and applied by a blue/green redeploy. A count that
 * cannot run on the serving version (a named volume, the VM size) is refused here with the deployment's own
 * sentence, and nothing is stored.
 */
export function createServiceReplicas(deps: {
  workspaces: Pick<WorkspacesRepository, 'findByName' | 'update'>;
  repository: Pick<DeploymentRepository, 'completedForWorkspace' | 'activeForWorkspace'>;
  plans: Pick<RevisionPlans, 'load'>;
  deploy: Deploy;
}) {
  return async function setServiceReplicas(
    user: UserRow,
    name: string,
    service: string,
    request: ServiceReplicasRequest,
  ): Promise<StartDeploymentResponse> {
    const workspace = await ownedWorkspace(deps.workspaces, user, name);
    if (!workspace.serviceUrls[service]) {
      throw new DomainError('not_found', `${name} has no service ${service} with a URL`);
    }
    if (await deps.repository.activeForWorkspace(user.id, name)) {
      throw new DomainError('deployment_in_progress', `A deployment is already running for ${name}`);
    }
    const overrides = { ...workspace.serviceReplicas, [service]: request.replicas };
    const [serving] = await deps.repository.completedForWorkspace(workspace.id);
    const plan = serving && (await deps.plans.load(workspace.id, serving.id));
    if (plan) {
      const all = (plan.normalized.services ?? {}) as Record<string, Obj>;
      const active = Object.fromEntries(
        plan.services.filter((s) => !s.inactive && all[s.name]).map((s) => [s.name, all[s.name]!]),
      );
      const size = findVmSize(workspace.vmSize) ?? findVmSize(DEFAULT_VM_SIZE)!;
      const { violations } = checkReplicas(active, {
        overrides,
        vm: { name: size.name, vcpus: size.vcpus, memoryMb: size.memoryMb },
      });
      if (violations.length > 0) {
        throw new DomainError('unprocessable', violations.map((v) => v.message).join('; '));
      }
    }
    await deps.workspaces.update(workspace.id, { serviceReplicas: overrides });
    const started = await deps.deploy({
      kind: 'manual',
      user,
      request: {
        sessionId: request.sessionId,
        owner: workspace.repoOwner,
        repo: name,
        branch: workspace.branch,
        workflowType: 'redeploy',
      },
    });
    return startedAnswer(started);
  };
}
