import type { Logger } from 'pino';
import type { LapsedWorkspace } from './lapses.js';

export interface LapseSweepDeps {
  billing: {
    findLapsedWorkspaces(graceDays: number, now?: Date): Promise<LapsedWorkspace[]>;
    confirmWorkspaceStopped(lapse: LapsedWorkspace): Promise<unknown>;
  };
  /** The engine's stop: containers stopped, routes removed, nothing deleted. */
  stopWorkspace(userId: string, workspaceName: string): Promise<boolean>;
  graceDays: number;
  logger: Logger;
}

/**
 * One pass: every workspace whose subscription was cancelled or fell past due longer than the grace period
 * ago is stopped, and then (only then) recorded and its owner told by email.
 */
export async function sweepLapsedWorkspaces(
  deps: LapseSweepDeps,
  now = new Date(),
): Promise<LapsedWorkspace[]> {
  const stopped: LapsedWorkspace[] = [];
  for (const lapse of await deps.billing.findLapsedWorkspaces(deps.graceDays, now)) {
    try {
      await deps.stopWorkspace(lapse.userId, lapse.workspaceName);
      await deps.billing.confirmWorkspaceStopped(lapse);
      stopped.push(lapse);
      deps.logger.info(
        { workspace: lapse.workspaceName, status: lapse.status },
        'stopped a lapsed workspace',
      );
    } catch (error) {
      deps.logger.warn({ err: error, workspace: lapse.workspaceName }, 'could not stop a lapsed workspace');
    }
  }
  return stopped;
}
