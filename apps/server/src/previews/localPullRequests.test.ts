import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBranchRefs } from '../infra/git/gitRefs.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { localPullRequestEvents } from './localPullRequests.js';
import type { PreviewRow } from './previewsRepository.js';

const parent = { repoOwner: 'operator', repoName: 'site' } as WorkspaceRow;
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const row = (number: number, headRef: string, headSha: string, pullRequestUrl: string | null = null) =>
  ({ number, headRef, headSha, state: 'live', pullRequestUrl }) as PreviewRow;

describe('local pull requests', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-pull-refs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args])
      .toString()
      .trim();

  it('reads refs/pull/{n}/head refs, loose and packed, beside the branches', async () => {
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'one');
    const sha = git('rev-parse', 'HEAD');
    git('update-ref', 'refs/pull/3/head', sha);
    git('update-ref', 'refs/pull/4/merge', sha);
    git('pack-refs', '--all');
    git('update-ref', 'refs/pull/5/head', sha);
    const refs = await readBranchRefs(path.join(dir, '.git'));
    expect([...refs.pullRequests]).toEqual([
      [3, sha],
      [5, sha],
    ]);
    expect([...refs.branches.keys()]).toEqual(['main']);
  });

  it('turns a new ref into opened, a moved one into synchronize, a deleted one into closed', () => {
    const opened = localPullRequestEvents(parent, new Map([['refs/pull/12/head', A]]), []);
    expect(opened).toEqual([
      expect.objectContaining({ action: 'opened', number: 12, headRef: 'refs/pull/12/head', sha: A }),
    ]);
    const known = [row(12, 'refs/pull/12/head', A)];
    expect(localPullRequestEvents(parent, new Map([['refs/pull/12/head', B]]), known)).toEqual([
      expect.objectContaining({ action: 'synchronize', number: 12, sha: B }),
    ]);
    expect(localPullRequestEvents(parent, new Map(), known)).toEqual([
      expect.objectContaining({ action: 'closed', number: 12 }),
    ]);
  });

  it('prefers a pr/{n} branch to a refs/pull/{n}/head ref of the same number, and ignores other names', () => {
    const refs = new Map([
      ['refs/pull/7/head', A],
      ['pr/7', B],
      ['pr/07', A],
      ['refs/pull/8/merge', A],
      ['feature', A],
    ]);
    expect(localPullRequestEvents(parent, refs, [])).toEqual([
      expect.objectContaining({ action: 'opened', number: 7, headRef: 'pr/7', sha: B }),
    ]);
  });

  it("leaves a preview GitHub told of to GitHub's events, though its ref is in the repository too", () => {
    const known = [row(9, 'refs/pull/9/head', A, 'https://github.com/operator/site/pull/9')];
    expect(localPullRequestEvents(parent, new Map([['refs/pull/9/head', B]]), known)).toEqual([]);
    expect(localPullRequestEvents(parent, new Map(), known)).toEqual([]);
  });
});
