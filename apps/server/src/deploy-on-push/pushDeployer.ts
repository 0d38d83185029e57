import type { Logger } from 'pino';
import { ACTIVE_STATUSES, type DeploymentRepository } from '../deployments/deploymentRepository.js';
import type { DeploymentService } from '../deployments/deploymentService.js';
import { DomainError } from '../domain/errors.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { createRefScan, type WatchLocalRefs } from '../repositories/refWatches.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import type { PushMarks } from '../workspaces/pushMarks.js';

/** Pushes closer together than this become one deployment: it starts once the branch is quiet this long. */
export const PUSH_COALESCE_MS = 2_000;

export type ReadBranchHead = (owner: string, repo: string, branch: string) => Promise<string | undefined>;

/**
 * Turns pushes into deployments, in one replica at a time (by lease). A workspace marked by a push is deployed
 * once no push has come for `coalesceMs` and it has no deployment queued or running; a push during a deployment
 * leaves the mark, so exactly one more deployment follows it. The deployment fetches the branch head, the
 * newest commit. In local mode (`readBranchHead`) the branch heads of the repositories whose refs moved are
 * read (the kernel tells, `watchLocalRefs`; all of them now and then: refWatches.ts createRefScan), and a head
 * the workspace has not seen, and its last deployment did not deploy, marks it the same way — once per commit,
 * so a commit whose deployment failed is not tried again until the branch moves.
 */
export function createPushDeployer(deps: {
  marks: PushMarks;
  repository: Pick<DeploymentRepository, 'activeForWorkspace' | 'latestForWorkspace'>;
  deployments: Pick<DeploymentService, 'deploy'>;
  readBranchHead?: ReadBranchHead;
  watchLocalRefs?: WatchLocalRefs;
  kv: KeyValueStore;
  logger: Logger;
  coalesceMs?: number;
  intervalMs?: number;
}) {
  const { marks, repository, logger } = deps;
  const coalesceMs = deps.coalesceMs ?? PUSH_COALESCE_MS;

  const scan = createRefScan({ list: () => marks.watched(), watch: deps.watchLocalRefs, logger });

  async function watchHeads(readBranchHead: ReadBranchHead) {
    for (const workspace of await scan.due()) {
      const head = await readBranchHead(workspace.repoOwner, workspace.repoName, workspace.branch).catch(
        (error) => {
          logger.debug({ err: error, workspaceId: workspace.id }, 'branch head unreadable');
          return undefined;
        },
      );
      if (!head || head === workspace.pushSeenSha) continue;
      const latest = await repository.latestForWorkspace(workspace.userId, workspace.name);
      // A deployment under way has not said which commit it fetched yet: look again when it ends.
      if (latest && ACTIVE_STATUSES.includes(latest.status)) continue;
      await marks.recordHead(workspace.id, head, head !== latest?.commitSha);
      workspace.pushSeenSha = head;
    }
  }

  /** Starts the deployments whose pushes have settled; returns how many started. */
  async function deploySettled(): Promise<number> {
    let started = 0;
    for (const workspace of await marks.due(new Date(Date.now() - coalesceMs))) {
      if (await repository.activeForWorkspace(workspace.userId, workspace.name)) continue;
      if (!workspace.pushPendingAt || !(await marks.claim(workspace.id, workspace.pushPendingAt))) continue;
      try {
        const { deploymentId } = await deps.deployments.deploy({ kind: 'push', workspace });
        logger.info({ workspaceId: workspace.id, deploymentId }, 'deploying a push');
        started++;
      } catch (error) {
        // Someone started a deployment in between: the push is deployed after it.
        if (error instanceof DomainError && error.code === 'deployment_in_progress') {
          await marks.markPending(workspace.id);
        } else {
          logger.warn({ err: error, workspaceId: workspace.id }, 'a push deployment could not start');
        }
      }
    }
    return started;
  }

  async function check(): Promise<number> {
    if (deps.readBranchHead) await watchHeads(deps.readBranchHead);
    return deploySettled();
  }

  // Pending pushes (and, in local mode, branch heads) are looked at every second (the schedule catalogue).
  const singleton = scheduledWhileLeaseHeld('push-deployer', {
    kv: deps.kv,
    logger,
    intervalMs: deps.intervalMs,
    task: check,
  });

  return {
    check,
    /** The switch changed here: the next check reads every workspace again (another replica's: within 30 s). */
    refresh: () => scan.refresh(),
    start: () => singleton.start(),
    stop: async () => {
      await singleton.stop();
      scan.stop();
    },
  };
}

export type PushDeployer = ReturnType<typeof createPushDeployer>;
