import { gitIn, writeFiles } from './gitRepos.js';

const git = (dir: string, ...args: string[]) => gitIn(dir)(...args);

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
    writeFiles(dir, files);
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
