/** A `pull_request` event as GitHub sends it (the fields of its documented payload, trimmed of URLs), for tests. */
export function githubPullRequestPayload(pr: {
  action: 'opened' | 'reopened' | 'synchronize' | 'closed';
  owner: string;
  repo: string;
  number: number;
  sha: string;
  title?: string;
  branch?: string;
  author?: string;
  /** The head repository's full name: a fork's when it is not `owner/repo`. */
  headRepo?: string;
  association?: 'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'CONTRIBUTOR' | 'FIRST_TIME_CONTRIBUTOR' | 'NONE';
}) {
  const repository = {
    id: 1296269,
    name: pr.repo,
    full_name: `${pr.owner}/${pr.repo}`,
    private: false,
    owner: { login: pr.owner, id: 1, type: 'User' },
    default_branch: 'main',
  };
  const author = pr.author ?? pr.owner;
  return {
    action: pr.action,
    number: pr.number,
    pull_request: {
      id: 1,
      number: pr.number,
      state: pr.action === 'closed' ? 'closed' : 'open',
      title: pr.title ?? `Change ${pr.number}`,
      html_url: `https://github.com/${pr.owner}/${pr.repo}/pull/${pr.number}`,
      user: { login: author, id: 2, type: 'User' },
      author_association: pr.association ?? 'OWNER',
      head: {
        label: `${author}:${pr.branch ?? 'change'}`,
        ref: pr.branch ?? 'change',
        sha: pr.sha,
        repo: { full_name: pr.headRepo ?? `${pr.owner}/${pr.repo}`, fork: pr.headRepo !== undefined },
      },
      base: { label: `${pr.owner}:main`, ref: 'main', sha: '0'.repeat(40), repo: repository },
      merged: false,
    },
    repository,
    sender: { login: author, id: 2, type: 'User' },
  };
}

/** An `issue_comment` on a pull request, as GitHub sends it. */
export function githubIssueCommentPayload(comment: {
  owner: string;
  repo: string;
  number: number;
  body: string;
  login: string;
  association: string;
}) {
  return {
    action: 'created',
    issue: {
      number: comment.number,
      title: 'Change',
      pull_request: {
        url: `https://api.github.com/repos/${comment.owner}/${comment.repo}/pulls/${comment.number}`,
      },
    },
    comment: {
      id: 77,
      body: comment.body,
      user: { login: comment.login, id: 3, type: 'User' },
      author_association: comment.association,
    },
    repository: {
      name: comment.repo,
      full_name: `${comment.owner}/${comment.repo}`,
      owner: { login: comment.owner },
    },
    sender: { login: comment.login, id: 3, type: 'User' },
  };
}
