import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Runs git in `dir` as the tests' author (as gitRepos.ts does), answering its output. */
function git(dir: string, ...args: string[]): string {
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'E2E',
    GIT_AUTHOR_EMAIL: 'e2e@slipway.localhost',
    GIT_COMMITTER_NAME: 'E2E',
    GIT_COMMITTER_EMAIL: 'e2e@slipway.localhost',
  };
  return execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
}

/**
 * A commit changing `files` on `branch` of the repository in `dir` (created from `from` when it does not exist),
 * leaving the checked-out branch as it was: what pushing to a pull request's branch is in local mode. Answers the
 * new commit's sha.
 */
export function commitOnBranch(
  dir: string,
  branch: string,
  files: Record<string, string>,
  message: string,
  from = 'main',
): string {
  const current = git(dir, 'symbolic-ref', '--short', 'HEAD');
  const exists = git(dir, 'branch', '--list', '--', branch) !== '';
  if (exists) git(dir, 'checkout', '-q', branch);
  else git(dir, 'checkout', '-q', '-b', branch, from);
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', message);
    return git(dir, 'rev-parse', 'HEAD');
  } finally {
    git(dir, 'checkout', '-q', current);
  }
}

/** Deletes `branch` of the repository in `dir`: in local mode, closing its pull request. */
export function deleteBranch(dir: string, branch: string) {
  git(dir, 'branch', '-q', '-D', '--', branch);
}
