import { execFile } from 'node:child_process';
import { watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DomainError, notFound } from '../domain/errors.js';
import { readBranchRefs } from '../infra/git/gitRefs.js';
import { watchDirectoryTree } from './directoryTreeWatch.js';
import { assertRepoNames } from './repositoryInput.js';

const GIT_TIMEOUT_MS = 15_000;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * Runs git on one repository with an argument array (never a shell), a timeout and a bounded output.
 * `--git-dir` pins the repository so nothing in the working tree (hooks, config includes of a checkout
 * we did not make) is consulted beyond what git reads for plumbing commands.
 */
export function git(gitDir: string, args: string[], options: { binary?: boolean } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [`--git-dir=${gitDir}`, ...args],
      {
        encoding: 'buffer',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: options.binary ? MAX_OUTPUT_BYTES : MAX_OUTPUT_BYTES / 4,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (error) {
          const reason = Buffer.isBuffer(stderr) ? stderr.toString('utf8').trim() : '';
          reject(
            Object.assign(new Error(`git ${args[0]} failed: ${reason || error.message}`), { cause: error }),
          );
          return;
        }
        resolve(stdout);
      },
    );
  });
}

export const gitText = async (gitDir: string, args: string[]) => (await git(gitDir, args)).toString('utf8');

async function isDirectory(target: string): Promise<boolean> {
  return stat(target).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

export interface LocalRepository {
  owner: string;
  name: string;
  /** The directory as laid out: `{owner}/{repo}` or `{owner}/{repo}.git`. */
  dir: string;
  /** `.git` inside a working copy, or the directory itself when bare. */
  gitDir: string;
  bare: boolean;
}

/** Recognises a git repository on disk without running git (fast enough for listing every repository). */
export async function openLocalRepository(
  dir: string,
  owner: string,
  name: string,
): Promise<LocalRepository | undefined> {
  if (await isDirectory(path.join(dir, '.git'))) {
    return { owner, name, dir, gitDir: path.join(dir, '.git'), bare: false };
  }
  if ((await isDirectory(path.join(dir, 'objects'))) && (await isDirectory(path.join(dir, 'refs')))) {
    return { owner, name, dir, gitDir: dir, bare: true };
  }
  return undefined;
}

/** The repository `{owner}/{repo}` under the root, validated and checked to exist (404 otherwise). */
export async function findLocalRepository(
  root: string,
  owner: string,
  repo: string,
): Promise<LocalRepository> {
  assertRepoNames(owner, repo);
  for (const candidate of [repo, `${repo}.git`]) {
    const dir = path.join(root, owner, candidate);
    // The names are plain, but the resolved directory must still be a child of the root.
    if (path.dirname(path.dirname(dir)) !== path.resolve(root)) continue;
    const found = await openLocalRepository(dir, owner, repo);
    if (found) return found;
  }
  throw notFound(`Repository ${owner}/${repo} not found`);
}

/** git failing on a repository we found means the repository is broken, not the request. */
export function gitFailure(error: unknown): DomainError {
  return new DomainError('internal', 'Reading the local repository failed', {
    detail: error instanceof Error ? error.message : String(error),
  });
}

/**
 * The refs a local repository's pull requests live in, name → commit: its branches, and each
 * `refs/pull/{n}/head` under that full name (previews read `pr/{n}` branches and those refs).
 */
export async function localPullRequestRefs(
  root: string,
  owner: string,
  repo: string,
): Promise<Map<string, string>> {
  const found = await findLocalRepository(root, owner, repo);
  const { branches, pullRequests } = await readBranchRefs(found.gitDir);
  const refs = new Map(branches);
  for (const [number, sha] of pullRequests) refs.set(`refs/pull/${number}/head`, sha);
  return refs;
}

/**
 * Calls `onChange` whenever a ref of a local repository may have moved (an entry under refs/ renamed, created or
 * removed, or packed-refs replaced): events from the kernel (inotify) on the directories git renames into, so
 * nobody polls the repository, and every move is told — not only the first (directoryTreeWatch.ts says why).
 * Previews and deploy on push both watch through here. Answers a function that stops watching.
 */
export async function watchLocalRefs(
  root: string,
  owner: string,
  repo: string,
  onChange: () => void,
): Promise<() => void> {
  const { gitDir } = await findLocalRepository(root, owner, repo);
  const refs = watchDirectoryTree(path.join(gitDir, 'refs'), onChange);
  // packed-refs is replaced by a rename into the repository's own directory (`git pack-refs`, `git gc`).
  const packed = watch(gitDir, { persistent: false }, (_event, file) => {
    if (file === 'packed-refs') onChange();
  });
  // A repository deleted under the watch ends it; the next look at its branches says what became of it.
  packed.on('error', () => packed.close());
  await refs.ready;
  return () => {
    refs.close();
    packed.close();
  };
}

/** The commit `branch` of a local repository points at, read from its ref files (no git process). */
export async function localBranchHead(
  root: string,
  owner: string,
  repo: string,
  branch: string,
): Promise<string | undefined> {
  const found = await findLocalRepository(root, owner, repo);
  return (await readBranchRefs(found.gitDir)).branches.get(branch);
}
