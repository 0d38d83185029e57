import { PREVIEW_STATE_LABELS, type PreviewState } from '@slipway/contract';

/**
 * What Slipway writes on a pull request: one comment (created once, then edited in place by its id) and a
 * commit status on the head commit. The GitHub adapter (infra/github/githubPullRequestNotes.ts) implements it;
 * in local mode there is none and nothing is posted.
 */
export interface PullRequestNotes {
  /** Creates the comment (no `commentId`) or edits it; answers its id. */
  writeComment(pr: PullRequestRef, body: string, commentId: number | null): Promise<number>;
  setStatus(pr: PullRequestRef, sha: string, status: CommitStatus): Promise<void>;
}

export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
}

export interface CommitStatus {
  state: 'pending' | 'success' | 'failure' | 'error';
  description: string;
  targetUrl: string | null;
}

const STATUS_OF: Record<PreviewState | 'removed', CommitStatus['state']> = {
  awaiting_approval: 'pending',
  waiting_for_slot: 'pending',
  deploying: 'pending',
  live: 'success',
  failed: 'failure',
  removing: 'success',
  removed: 'success',
};

/** GitHub caps a status description at 140 characters. */
const clip = (text: string, length: number) =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

export function commitStatusOf(
  state: PreviewState | 'removed',
  cause: string | null,
  urls: Record<string, string>,
): CommitStatus {
  const label = state === 'removed' ? 'Removed' : PREVIEW_STATE_LABELS[state];
  return {
    state: STATUS_OF[state],
    description: clip(cause ? `${label}: ${cause}` : `Preview ${label.toLowerCase()}`, 140),
    targetUrl: Object.values(urls)[0] ?? null,
  };
}

/** The comment's Markdown: the state, the cause, the links; text from the pull request never goes in it. */
export function commentBody(
  workspace: string,
  state: PreviewState | 'removed',
  sha: string,
  cause: string | null,
  urls: Record<string, string>,
): string {
  const label = state === 'removed' ? 'Removed' : PREVIEW_STATE_LABELS[state];
  const links = Object.entries(urls).map(([service, url]) => `- ${service}: ${url}`);
  return [
    `**Slipway preview of ${workspace}**: ${label} (commit \`${sha.slice(0, 7)}\`)`,
    ...(cause ? ['', clip(cause.replace(/[<>]/g, ''), 1000)] : []),
    ...(links.length && state === 'live' ? ['', ...links] : []),
  ].join('\n');
}
