import type { RevisionPlan } from './revisionPlans.js';
import type { Rolling } from './rolloutRun.js';
import { reportStartFailure } from './verification.js';

/** How long putting the previous version back may take, whatever stopped the run. */
const RESTORE_TIMEOUT_MS = 10 * 60_000;

/**
 * Starts the rollout's version as the serving copy, replacing its changed replicas in place; returns the replicas
 * that ran before (the engine left them running: only their restarts from now on count).
 */
export async function startServing(rolling: Rolling): Promise<ReadonlySet<string>> {
  const { version, engine, run } = rolling;
  run.log('Starting containers...');
  const preExisting = new Set((await engine.replicas('serving')).map((replica) => replica.id));
  try {
    await engine.up(version, { slot: 'serving' }, run, 'Starting the containers');
  } catch (error) {
    // A one-shot service that failed stops `up`: its exit code and log explain more than the engine's last line.
    throw await reportStartFailure(rolling, error, preExisting);
  }
  run.log('Containers started');
  return preExisting;
}

/**
 * After a redeploy failed with its containers started: starts the last good version again from its plan and
 * its kept images (no build), with the workspace's variables. False when there is none to go back to.
 */
export async function restoreServing(
  { engine, run }: Rolling,
  serving: RevisionPlan | undefined,
): Promise<boolean> {
  if (!serving) return false;
  run.log(`Starting the previous version again (deployment ${serving.deploymentId.slice(0, 8)})`);
  // The run's own signal may be the reason it failed (a time limit, a cancel): this has one of its own.
  await engine.up(
    { plan: serving, env: run.env },
    { slot: 'serving' },
    { ...run, signal: AbortSignal.timeout(RESTORE_TIMEOUT_MS) },
    'Starting the previous version',
  );
  return true;
}
