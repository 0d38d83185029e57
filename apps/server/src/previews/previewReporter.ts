import type { PreviewState } from '@slipway/contract';
import type { Logger } from 'pino';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { PreviewRow, PreviewsRepository } from './previewsRepository.js';
import { commentBody, commitStatusOf, type PullRequestNotes } from './pullRequestNotes.js';

/**
 * Keeps a pull request's comment and commit status saying what its preview is doing: written when the state or
 * the head commit changes, the comment edited in place. Only previews of GitHub pull requests (a URL) are
 * reported, and only when a GitHub adapter is configured; a failure to write is logged, never fatal.
 */
export function createPreviewReporter(deps: {
  notes: PullRequestNotes | undefined;
  previews: PreviewsRepository;
  workspaces: Pick<WorkspacesRepository, 'findById'>;
  logger: Logger;
}) {
  async function write(preview: PreviewRow, state: PreviewState | 'removed') {
    const { notes } = deps;
    if (!notes || !preview.pullRequestUrl) return;
    const parent = await deps.workspaces.findById(preview.parentId);
    if (!parent) return;
    const workspace = preview.workspaceId ? await deps.workspaces.findById(preview.workspaceId) : undefined;
    const urls = state === 'live' ? (workspace?.serviceUrls ?? {}) : {};
    const pr = { owner: parent.repoOwner, repo: parent.repoName, number: preview.number };
    const cause = state === 'removed' ? null : preview.cause;
    const commentId = await notes.writeComment(
      pr,
      commentBody(parent.name, state, preview.headSha, cause, urls),
      preview.commentId,
    );
    await notes.setStatus(pr, preview.headSha, commitStatusOf(state, cause, urls));
    return commentId;
  }

  /** Whether the pull request already says what the preview is doing (or nothing is written for it). */
  const upToDate = (preview: PreviewRow) =>
    !deps.notes || !preview.pullRequestUrl || preview.reportedState === `${preview.state}:${preview.headSha}`;

  return {
    upToDate,
    async report(preview: PreviewRow) {
      const said = `${preview.state}:${preview.headSha}`;
      if (upToDate(preview)) return;
      try {
        const commentId = await write(preview, preview.state as PreviewState);
        await deps.previews.update(preview.id, {
          reportedState: said,
          commentId: commentId ?? preview.commentId,
        });
      } catch (error) {
        deps.logger.warn({ err: error, previewId: preview.id }, 'writing the pull request comment failed');
      }
    },
    async removed(preview: PreviewRow) {
      await write(preview, 'removed').catch((error) =>
        deps.logger.warn({ err: error, previewId: preview.id }, 'writing the pull request comment failed'),
      );
    },
  };
}

export type PreviewReporter = ReturnType<typeof createPreviewReporter>;
