import { MAX_PULL_REQUEST_NUMBER, PREVIEW_APPROVAL_COMMAND } from '@slipway/contract';
import { z } from 'zod';
import { invalid } from '../domain/errors.js';

/** What a pull request's life says to previews: its head moved (or it opened), or it closed. */
export interface PullRequestEvent {
  action: 'opened' | 'synchronize' | 'closed';
  owner: string;
  repo: string;
  number: number;
  title: string;
  /** The head branch (in a fork: the fork's). */
  branch: string;
  /** What a deployment fetches from the base repository: `refs/pull/{n}/head`, or `pr/{n}` in local mode. */
  headRef: string;
  sha: string;
  author: string;
  fromFork: boolean;
  /** The author has write access (OWNER, MEMBER, COLLABORATOR), or it is local mode's owner. */
  authorCanWrite: boolean;
  url: string | null;
}

/** An approval asked for in a comment: `/slipway preview` by someone with write access. */
export interface ApprovalComment {
  owner: string;
  repo: string;
  number: number;
  by: string;
}

/** GitHub's author_association values that mean write access to the repository. */
const WRITE_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);
const SHA = /^[0-9a-f]{40}$/;

const repositorySchema = z.object({
  name: z.string(),
  full_name: z.string().optional(),
  owner: z.object({ login: z.string() }),
});

const pullRequestSchema = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  pull_request: z.object({
    title: z.string(),
    html_url: z.string().optional(),
    author_association: z.string().optional(),
    user: z.object({ login: z.string() }),
    head: z.object({
      ref: z.string(),
      sha: z.string(),
      repo: z.object({ full_name: z.string() }).nullable(),
    }),
  }),
  repository: repositorySchema,
});

/**
 * A number past what Slipway takes (the previews table's column is 32 bits, as GitHub's own numbers are) is no
 * pull request GitHub made: the delivery is refused in words, not stored.
 */
function checkNumber(number: number) {
  if (number > MAX_PULL_REQUEST_NUMBER) {
    throw invalid(
      `Pull request number ${number} is past the largest Slipway takes (${MAX_PULL_REQUEST_NUMBER.toLocaleString('en-US')})`,
    );
  }
}

const ACTIONS: Record<string, PullRequestEvent['action']> = {
  opened: 'opened',
  reopened: 'opened',
  synchronize: 'synchronize',
  closed: 'closed',
};

/** A `pull_request` delivery previews act on, or undefined (labels, reviews, edits…). */
export function parsePullRequestEvent(payload: unknown): PullRequestEvent | undefined {
  const parsed = pullRequestSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { action, number, pull_request: pr, repository } = parsed.data;
  checkNumber(number);
  const kind = ACTIONS[action];
  if (!kind || !SHA.test(pr.head.sha)) return undefined;
  const baseName = `${repository.owner.login}/${repository.name}`;
  // A deleted fork leaves head.repo null: still not the base repository's own branch.
  const fromFork = pr.head.repo?.full_name.toLowerCase() !== baseName.toLowerCase();
  return {
    action: kind,
    owner: repository.owner.login,
    repo: repository.name,
    number,
    title: pr.title.slice(0, 300),
    branch: pr.head.ref.slice(0, 300),
    headRef: `refs/pull/${number}/head`,
    sha: pr.head.sha,
    author: pr.user.login,
    fromFork,
    authorCanWrite: WRITE_ASSOCIATIONS.has(pr.author_association ?? ''),
    url: pr.html_url ?? null,
  };
}

const issueCommentSchema = z.object({
  action: z.literal('created'),
  issue: z.object({ number: z.number().int().positive(), pull_request: z.object({}).passthrough() }),
  comment: z.object({
    body: z.string(),
    author_association: z.string(),
    user: z.object({ login: z.string() }),
  }),
  repository: repositorySchema,
});

/** An `issue_comment` on a pull request asking for its preview, from someone with write access; else undefined. */
export function parseApprovalComment(payload: unknown): ApprovalComment | undefined {
  const parsed = issueCommentSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { issue, comment, repository } = parsed.data;
  if (comment.body.trim() !== PREVIEW_APPROVAL_COMMAND) return undefined;
  checkNumber(issue.number);
  if (!WRITE_ASSOCIATIONS.has(comment.author_association)) return undefined;
  return {
    owner: repository.owner.login,
    repo: repository.name,
    number: issue.number,
    by: comment.user.login,
  };
}
