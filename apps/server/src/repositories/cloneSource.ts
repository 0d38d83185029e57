import type { UserRow } from '../users/usersRepository.js';
import { findLocalRepository } from './localGit.js';

/**
 * What `git clone` needs: a URL (or, in local mode, an absolute directory) and, for GitHub, an
 * Authorization header. The token never goes into the URL, so it never lands in `.git/config`,
 * `git remote -v` or a build log; pass it with `gitAuthArgs` on the command line of each git call.
 */
export interface CloneSource {
  url: string;
  headers?: Record<string, string>;
}

/** Resolves the clone source of a repository the user may deploy (404 when they cannot see it). */
export type ResolveCloneSource = (user: UserRow, owner: string, repo: string) => Promise<CloneSource>;

/** Local mode: the absolute directory of `{owner}/{repo}` under the repositories root, checked to exist. */
export async function localCloneSource(reposDir: string, owner: string, repo: string): Promise<CloneSource> {
  const found = await findLocalRepository(reposDir, owner, repo);
  return { url: found.dir };
}

/** GitHub's documented form for cloning with a token: Basic auth as `x-access-token`. */
export function githubCloneSource(webUrl: string, owner: string, repo: string, token: string): CloneSource {
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    url: `${webUrl}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}.git`,
    headers: { Authorization: `Basic ${basic}` },
  };
}

/** `-c http.extraHeader=...` arguments for git, placed before the subcommand: `git ...args clone -- url dir`. */
export function gitAuthArgs(source: CloneSource): string[] {
  return Object.entries(source.headers ?? {}).flatMap(([name, value]) => [
    '-c',
    `http.extraHeader=${name}: ${value}`,
  ]);
}
