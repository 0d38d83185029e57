import { createOctokit, githubError } from './githubApi.js';

export interface PullRequestTarget {
  owner: string;
  repo: string;
  number: number;
}

/**
 * GitHub's side of a preview's visibility: the issue comment on its pull request (created once, then edited in
 * place: `PATCH /repos/{owner}/{repo}/issues/comments/{id}`) and a commit status (`POST
 * /repos/{owner}/{repo}/statuses/{sha}`, context `slipway/preview`), with a token for the repository.
 */
export function createGithubPullRequestNotes(deps: {
  apiUrl: string;
  tokenFor(owner: string, repo: string): Promise<string>;
}) {
  const client = async (owner: string, repo: string) =>
    createOctokit(deps.apiUrl, await deps.tokenFor(owner, repo));
  return {
    async writeComment(pr: PullRequestTarget, body: string, commentId: number | null): Promise<number> {
      const octokit = await client(pr.owner, pr.repo);
      try {
        if (commentId !== null) {
          const edited = await octokit.rest.issues
            .updateComment({ owner: pr.owner, repo: pr.repo, comment_id: commentId, body })
            .catch((error: { status?: number }) => {
              // Someone deleted it: a new one takes its place.
              if (error.status === 404) return undefined;
              throw error;
            });
          if (edited) return edited.data.id;
        }
        const created = await octokit.rest.issues.createComment({
          owner: pr.owner,
          repo: pr.repo,
          issue_number: pr.number,
          body,
        });
        return created.data.id;
      } catch (error) {
        throw githubError(error, `Pull request ${pr.number} of ${pr.owner}/${pr.repo} not found`);
      }
    },

    async setStatus(
      pr: PullRequestTarget,
      sha: string,
      status: {
        state: 'pending' | 'success' | 'failure' | 'error';
        description: string;
        targetUrl: string | null;
      },
    ): Promise<void> {
      const octokit = await client(pr.owner, pr.repo);
      await octokit.rest.repos
        .createCommitStatus({
          owner: pr.owner,
          repo: pr.repo,
          sha,
          state: status.state,
          description: status.description,
          context: 'slipway/preview',
          ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
        })
        .catch((error) => {
          throw githubError(error, `Commit ${sha.slice(0, 7)} of ${pr.owner}/${pr.repo} not found`);
        });
    },
  };
}
