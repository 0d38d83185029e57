import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { shallowClone } from '../../infra/git/gitClone.js';
import type { RevisionPlan } from '../../rollout/revisionPlans.js';
import { StepFailure } from '../../rollout/stepFailure.js';
import type { UserRow } from '../../users/usersRepository.js';
import type { WorkspaceRow } from '../../workspaces/workspacesRepository.js';
import type { DeploymentDeps } from '../deploymentDeps.js';
import type { DeploymentRow } from '../deploymentRepository.js';
import { assertExpectedCommit } from '../expectedCommit.js';
import { checkoutDirOf } from '../leftovers.js';
import { rollbackOf } from '../rollbackOf.js';

const CLONE_TIMEOUT_MS = 5 * 60_000;

/** What a deployment deploys: a commit checked out of the repository, or — a rollback — a kept version. */
export type Source =
  | { kind: 'checkout'; repoDir: string; commitSha: string }
  | { kind: 'kept'; plan: RevisionPlan; commitSha: string | null };

/**
 * Shallow clone of the chosen branch into the workspace's checkout directory, the commit recorded; a rollback
 * takes the kept version's plan instead.
 */
export async function fetchSource(
  deps: Pick<DeploymentDeps, 'resolveSource' | 'repository' | 'plans' | 'workRoot'>,
  deployment: DeploymentRow,
  user: UserRow,
  workspace: WorkspaceRow,
  run: { log: (line: string) => void; signal: AbortSignal },
): Promise<Source> {
  const rollbackTo = rollbackOf(deployment);
  if (rollbackTo) {
    const plan = await deps.plans.load(workspace.id, rollbackTo);
    if (!plan) throw new StepFailure('That version is no longer kept; it can no longer be rolled back to');
    if (plan.commitSha) await deps.repository.update(deployment.id, { commitSha: plan.commitSha });
    run.log(
      `Rolling back to the version of deployment ${plan.deploymentId.slice(0, 8)} (commit ${plan.commitSha?.slice(0, 7) ?? 'unknown'}): nothing to fetch`,
    );
    return { kind: 'kept', plan, commitSha: plan.commitSha };
  }
  const source = await deps.resolveSource(user, deployment.owner, deployment.repo);
  const dir = checkoutDirOf(deps.workRoot, workspace.id);
  // What a deployment that died left there (the run's own end removes it).
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  run.log(`Cloning ${deployment.owner}/${deployment.repo} (branch ${deployment.branch})`);
  const sha = await shallowClone(source, deployment.branch, dir, {
    timeoutMs: CLONE_TIMEOUT_MS,
    signal: run.signal,
    onLine: run.log,
  }).catch((error: Error & { result?: { stderr?: string } }) => {
    const stderr = error.result?.stderr ?? '';
    if (/Remote branch .* not found|couldn't find remote ref/i.test(stderr)) {
      throw new Error(
        `Branch '${deployment.branch}' was not found in ${deployment.owner}/${deployment.repo}`,
      );
    }
    throw new Error(
      `Could not clone ${deployment.owner}/${deployment.repo}: ${stderr.trim().split('\n').pop() ?? error.message}`,
    );
  });
  assertExpectedCommit(deployment, sha);
  await deps.repository.update(deployment.id, { commitSha: sha });
  run.log(`Checked out commit ${sha}`);
  return { kind: 'checkout', repoDir: dir, commitSha: sha };
}
