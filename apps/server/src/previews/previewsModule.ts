import { type EnvVariable, previewWorkspaceName } from '@slipway/contract';
import type { Logger } from 'pino';
import type { DeploymentRepository } from '../deployments/deploymentRepository.js';
import type { DeploymentService } from '../deployments/deploymentService.js';
import type { PreviewVariables } from '../env-variables/previewVariables.js';
import type { Db } from '../infra/db/client.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { createRefScan, type WatchLocalRefs } from '../repositories/refWatches.js';
import { SCHEDULE } from '../scheduling/scheduleCatalogue.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { localPullRequestEvents } from './localPullRequests.js';
import { createPreviewDeployer } from './previewDeployer.js';
import { createPreviewEvents } from './previewEvents.js';
import { createPreviewLoop } from './previewLoop.js';
import { createPreviewReporter } from './previewReporter.js';
import { createPreviewsRepository } from './previewsRepository.js';
import { createPreviewsService } from './previewsService.js';
import { parseApprovalComment, parsePullRequestEvent } from './pullRequestEvents.js';
import type { PullRequestNotes } from './pullRequestNotes.js';

/** How often, between the leased ticks, the deployer looks again (local branches, deployments ending). */
const PREVIEW_POLL_MS = 200;

/** How long a parent's deletion waits for a preview's cancelled deployment to end (it puts back what it started). */
const CANCEL_WAIT_MS = 60_000;

/** Reads a local repository's branches and `refs/pull/{n}/head` refs (name → commit), for local mode's pull requests. */
export type ReadLocalBranches = (owner: string, repo: string) => Promise<Map<string, string>>;

/**
 * Previews, wired: pull request events (GitHub's webhook, or local `pr/{n}` branches) become preview rows, one
 * leased deployer moves them along, an hourly sweep removes the idle ones, and the routes' service.
 */
export function createPreviewsModule(deps: {
  db: Db;
  kv: KeyValueStore;
  logger: Logger;
  workspaces: WorkspacesRepository;
  deployments: DeploymentService;
  repository: DeploymentRepository;
  variables: PreviewVariables;
  removeWorkspace(userId: string, name: string): Promise<void>;
  readLocalBranches?: ReadLocalBranches;
  watchLocalRefs?: WatchLocalRefs;
  notes?: PullRequestNotes;
}) {
  const { logger } = deps;
  const previews = createPreviewsRepository(deps.db);
  const events = createPreviewEvents({ previews, logger });
  const reporter = createPreviewReporter({
    notes: deps.notes,
    previews,
    workspaces: deps.workspaces,
    logger,
  });
  const deployer = createPreviewDeployer({ ...deps, previews, reporter });
  const service = createPreviewsService({
    previews,
    workspaces: deps.workspaces,
    events,
    variables: deps.variables,
    wake: () => {
      scan.refresh();
      loop.wake();
    },
  });

  /** The parents whose local refs a pass reads (see createRefScan); a ref moving wakes the loop. */
  const scan = createRefScan({
    list: () => previews.watchedParents(),
    watch: deps.watchLocalRefs,
    onChange: () => loop.wake(),
    logger,
  });

  /** Local `pr/{n}` branches and `refs/pull/{n}/head` refs as pull request events; answers whether any came. */
  async function watchLocalBranches(read: ReadLocalBranches): Promise<boolean> {
    let received = false;
    for (const parent of await scan.due()) {
      const branches = await read(parent.repoOwner, parent.repoName).catch((error) => {
        logger.debug({ err: error, workspaceId: parent.id }, 'branches unreadable');
        return undefined;
      });
      if (!branches) continue;
      for (const event of localPullRequestEvents(parent, branches, await previews.listOf(parent.id))) {
        // Previews turned off: none starts or moves on, but one whose pull request closes still goes.
        if (!parent.previewsOn && event.action !== 'closed') continue;
        await events.receive(event, [parent]);
        received = true;
      }
    }
    return received;
  }

  /** Cancels the workspace's deployment under way, if any, and waits until it has ended. */
  async function endDeployment(userId: string, name: string) {
    const deadline = Date.now() + CANCEL_WAIT_MS;
    let cancelled: string | undefined;
    for (let active = await deps.repository.activeForWorkspace(userId, name); active; ) {
      if (cancelled !== active.id) await deps.deployments.cancelById(active.id);
      cancelled = active.id;
      if (Date.now() > deadline) throw new Error(`the deployment of ${name} did not end once cancelled`);
      await new Promise((resolve) => setTimeout(resolve, PREVIEW_POLL_MS));
      active = await deps.repository.activeForWorkspace(userId, name);
    }
  }

  /** One look at local branches and at every preview; answers whether anything is in motion. */
  async function check(): Promise<boolean> {
    const received = deps.readLocalBranches ? await watchLocalBranches(deps.readLocalBranches) : false;
    return (await deployer.check()) || received;
  }

  const loop = createPreviewLoop({
    check,
    intervalMs: SCHEDULE['preview-deployer'].everyMs,
    pollMs: PREVIEW_POLL_MS,
  });
  const tasks = [
    scheduledWhileLeaseHeld('preview-deployer', { kv: deps.kv, logger, task: loop.task }),
    scheduledWhileLeaseHeld('preview-sweep', { kv: deps.kv, logger, task: () => service.sweep() }),
  ];

  return {
    service,
    check,
    /** GitHub's `pull_request` and `issue_comment` deliveries, already verified and deduplicated. */
    async receiveGithubEvent(event: string, payload: unknown): Promise<number | undefined> {
      if (event === 'pull_request') {
        const pr = parsePullRequestEvent(payload);
        if (!pr) return undefined;
        // A closing reaches every preview of the pull request, previews on or off (they stay only until then).
        const parents =
          pr.action === 'closed'
            ? await previews.parentsWithPreviewsOf(pr.owner, pr.repo)
            : await previews.enabledParentsOf(pr.owner, pr.repo);
        const touched = await events.receive(pr, parents);
        if (touched) loop.wake();
        return touched;
      }
      if (event === 'issue_comment') {
        const comment = parseApprovalComment(payload);
        if (!comment) return undefined;
        const approved = await events.approve(
          await previews.enabledParentsOf(comment.owner, comment.repo),
          comment.number,
        );
        logger.info({ ...comment, previews: approved.length }, 'preview approved by comment');
        if (approved.length) loop.wake();
        return approved.length;
      }
      return undefined;
    },
    /**
     * The variables of a preview workspace (undefined for any other): only those marked for previews, and for a
     * pull request that needed approval only those with a preview value of their own.
     */
    async previewEnv(userId: string, workspaceName: string): Promise<EnvVariable[] | undefined> {
      const workspace = await deps.workspaces.findByName(userId, workspaceName);
      if (!workspace?.previewOf) return undefined;
      const parent = await deps.workspaces.findById(workspace.previewOf);
      if (!parent) return [];
      const preview = await previews.findByWorkspace(workspace.id);
      return deps.variables.readForPreview(userId, parent.name, preview ? !preview.needsApproval : false);
    },
    /**
     * Removes every preview of a workspace being deleted, with all each one made: marked for removal first, so
     * the deployer starts nothing more, and a deployment still running cancelled and waited for (a workspace is
     * not removed under its deployment).
     */
    async removeAllOf(parent: WorkspaceRow) {
      const rows = await previews.listOf(parent.id);
      for (const row of rows) {
        await previews.update(row.id, { state: 'removing', pendingSha: null, closedAt: new Date() });
      }
      for (const row of rows) {
        const name = previewWorkspaceName(parent.name, row.number);
        await endDeployment(parent.userId, name);
        await deps.removeWorkspace(parent.userId, name);
        await previews.delete(row.id);
      }
    },
    /** The variables a preview of `parentName` runs with (trusted: its pull request needed no approval). */
    variablesFor: (userId: string, parentName: string, trusted: boolean) =>
      deps.variables.readForPreview(userId, parentName, trusted),
    start: () => {
      for (const task of tasks) task.start();
    },
    stop: async () => {
      scan.stop();
      loop.halt();
      for (const task of tasks) await task.stop();
    },
  };
}

export type PreviewsModule = ReturnType<typeof createPreviewsModule>;
