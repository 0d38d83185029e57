import type { PreviewState } from '@slipway/contract';
import type { Logger } from 'pino';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { PreviewRow, PreviewsRepository } from './previewsRepository.js';
import type { PullRequestEvent } from './pullRequestEvents.js';

export const APPROVAL_CAUSE =
  'This pull request comes from a fork or from an author without write access: it runs only once someone with write access approves its commit';

/** The state a preview with a new head commit waits in until the deployer takes it. */
export function pendingState(
  preview: Pick<PreviewRow, 'needsApproval' | 'approvedSha'>,
  sha: string,
): PreviewState {
  return preview.needsApproval && preview.approvedSha !== sha ? 'awaiting_approval' : 'deploying';
}

/**
 * Pull request events made into preview rows, for every workspace of the repository with previews on: opened
 * and synchronize leave the head commit pending (the deployer deploys it, or it awaits approval), closed marks the
 * preview for removal; a closed event for a pull request without a preview changes nothing.
 */
export function createPreviewEvents(deps: { previews: PreviewsRepository; logger: Logger }) {
  const { previews } = deps;

  async function applyTo(parent: WorkspaceRow, event: PullRequestEvent): Promise<boolean> {
    const existing = await previews.find(parent.id, event.number);
    if (event.action === 'closed') {
      if (!existing) return false;
      await previews.update(existing.id, { state: 'removing', pendingSha: null, closedAt: new Date() });
      return true;
    }
    const needsApproval = event.fromFork || !event.authorCanWrite;
    const values = {
      title: event.title,
      branch: event.branch,
      headRef: event.headRef,
      headSha: event.sha,
      author: event.author,
      fromFork: event.fromFork,
      needsApproval,
      pullRequestUrl: event.url,
      pendingSha: event.sha,
      lastActivityAt: new Date(),
      closedAt: null,
    };
    const state = pendingState({ needsApproval, approvedSha: existing?.approvedSha ?? null }, event.sha);
    const cause = state === 'awaiting_approval' ? APPROVAL_CAUSE : null;
    if (existing) await previews.update(existing.id, { ...values, state, cause });
    else await previews.insert({ parentId: parent.id, number: event.number, ...values, state, cause });
    return true;
  }

  return {
    /** Applies the event to each workspace of its repository with previews on; answers how many it touched. */
    async receive(event: PullRequestEvent, parents: WorkspaceRow[]): Promise<number> {
      let touched = 0;
      for (const parent of parents) if (await applyTo(parent, event)) touched++;
      deps.logger.info({ ...event, title: undefined, previews: touched }, 'pull request event');
      return touched;
    },

    /** Approves the current head commit of pull request `number` in each parent (a comment, or the Approve button). */
    async approve(parents: WorkspaceRow[], number: number): Promise<PreviewRow[]> {
      const approved: PreviewRow[] = [];
      for (const parent of parents) {
        const preview = await previews.find(parent.id, number);
        if (!preview || preview.state === 'removing') continue;
        const updated = await previews.update(preview.id, {
          approvedSha: preview.headSha,
          pendingSha: preview.state === 'awaiting_approval' ? preview.headSha : preview.pendingSha,
          state: preview.state === 'awaiting_approval' ? 'deploying' : preview.state,
          cause: preview.state === 'awaiting_approval' ? null : preview.cause,
          lastActivityAt: new Date(),
        });
        if (updated) approved.push(updated);
      }
      return approved;
    },
  };
}

export type PreviewEvents = ReturnType<typeof createPreviewEvents>;
