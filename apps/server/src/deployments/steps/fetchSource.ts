import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { shallowClone } from '../../infra/git/gitClone.js';
import { assertExpectedCommit } from '../expectedCommit.js';
import { checkoutDirOf } from '../leftovers.js';
import { rollbackOf } from '../revisionPlans.js';
import { type RunState, StepFailure } from '../runState.js';

const CLONE_TIMEOUT_MS = 5 * 60_000;

/** Shallow clone of the chosen branch into the workspace's checkout directory; records the commit. */
export async function fetchSource(state: RunState) {
  const { deployment, user } = state;
  if (rollbackOf(deployment)) {
    const plan = state.rollbackTo;
    if (!plan) throw new StepFailure('That version is no longer kept; it can no longer be rolled back to');
    state.commitSha = plan.commitSha ?? undefined;
    if (plan.commitSha) await state.deps.repository.update(deployment.id, { commitSha: plan.commitSha });
    state.log.write(
      `Rolling back to the version of deployment ${plan.deploymentId.slice(0, 8)} (commit ${plan.commitSha?.slice(0, 7) ?? 'unknown'}): nothing to fetch`,
    );
    return;
  }
  const source = await state.deps.resolveSource(user, deployment.owner, deployment.repo);
  const dir = checkoutDirOf(state.deps.workRoot, state.workspace.id);
  // What a deployment that died left there (the run's own end removes it).
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  state.log.write(`Cloning ${deployment.owner}/${deployment.repo} (branch ${deployment.branch})`);
  const sha = await shallowClone(source, deployment.branch, dir, {
    timeoutMs: CLONE_TIMEOUT_MS,
    signal: state.signal,
    onLine: (line) => state.log.write(line),
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
  state.repoDir = dir;
  state.commitSha = sha;
  assertExpectedCommit(deployment, sha);
  await state.deps.repository.update(deployment.id, { commitSha: sha });
  state.log.write(`Checked out commit ${sha}`);
}
