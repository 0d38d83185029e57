import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { PreviewRow } from './previewsRepository.js';
import type { PullRequestEvent } from './pullRequestEvents.js';

/** Local mode's pull requests: a branch named `pr/{number}`, or a ref `refs/pull/{number}/head`. */
const PR_REF = /^(?:pr\/([1-9][0-9]{0,8})|refs\/pull\/([1-9][0-9]{0,8})\/head)$/;
const numberOf = (ref: string) => {
  const match = PR_REF.exec(ref);
  return match ? Number(match[1] ?? match[2]) : undefined;
};

/**
 * The events a local repository's `pr/{n}` branches and `refs/pull/{n}/head` refs stand for, against the previews the workspace has: a new
 * branch opens a pull request, a moved one is a synchronize, a deleted one closes it. The branch is the owner's
 * own (they pushed it to their repository directory): it never needs an approval.
 */
export function localPullRequestEvents(
  parent: WorkspaceRow,
  branches: Map<string, string>,
  known: PreviewRow[],
): PullRequestEvent[] {
  const heads = new Map<number, { branch: string; sha: string }>();
  for (const [branch, sha] of branches) {
    const number = numberOf(branch);
    // A `pr/{n}` branch wins over a `refs/pull/{n}/head` ref of the same number.
    if (number && !(heads.has(number) && branch.startsWith('refs/'))) heads.set(number, { branch, sha });
  }
  const event = (action: PullRequestEvent['action'], number: number, branch: string, sha: string) => ({
    action,
    owner: parent.repoOwner,
    repo: parent.repoName,
    number,
    title: branch,
    branch,
    headRef: branch,
    sha,
    author: parent.repoOwner,
    fromFork: false,
    authorCanWrite: true,
    url: null,
  });
  const events: PullRequestEvent[] = [];
  // A preview GitHub told of (it has the pull request's page) is GitHub's to move: its number is not local.
  const fromGithub = new Set(known.filter((preview) => preview.pullRequestUrl !== null).map((p) => p.number));
  const local = known.filter(
    (preview) => numberOf(preview.headRef) !== undefined && !fromGithub.has(preview.number),
  );
  for (const [number, head] of heads) {
    if (fromGithub.has(number)) continue;
    const preview = local.find((row) => row.number === number);
    if (!preview || preview.state === 'removing') {
      if (!preview) events.push(event('opened', number, head.branch, head.sha));
    } else if (preview.headSha !== head.sha) events.push(event('synchronize', number, head.branch, head.sha));
  }
  for (const preview of local) {
    if (!heads.has(preview.number) && preview.state !== 'removing') {
      events.push(event('closed', preview.number, preview.headRef, preview.headSha));
    }
  }
  return events;
}
