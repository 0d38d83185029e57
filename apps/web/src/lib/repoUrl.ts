/** The code host's address, or a local repositories directory, in front of owner/repo. */
const HOST_PREFIXES = [/^https?:\/\/(www\.)?github\.com\//i, /^git@github\.com:/i];

export interface RepoRef {
  owner: string;
  repo: string;
}

/**
 * owner and repo from a workspace's repo_url: https://github.com/{owner}/{repo}(.git), or a local
 * path ending in {owner}/{repo} (local mode keeps repositories laid out that way). Null when the
 * URL does not yield both.
 */
export function parseRepoUrl(url: string | null | undefined): RepoRef | null {
  if (!url) return null;
  let rest = url.trim();
  const hosted = HOST_PREFIXES.find((prefix) => prefix.test(rest));
  if (hosted) rest = rest.replace(hosted, '');
  else if (/^file:\/\//i.test(rest)) rest = rest.slice('file://'.length);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) return null;
  const parts = rest
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .split('/')
    .filter(Boolean);
  // A hosted URL is exactly owner/repo (extra parts like /tree/main are ignored); a local path ends with them.
  const [owner, repo] = hosted ? parts : parts.slice(-2);
  if (!owner || !repo || parts.length < 2) return null;
  if (!/^[A-Za-z0-9-]{1,39}$/.test(owner) || !/^[A-Za-z0-9._-]{1,100}$/.test(repo)) return null;
  if (repo === '.' || repo === '..') return null;
  return { owner, repo };
}

export const REPO_URL_MISSING = 'Repository URL not found for this workspace. Cannot redeploy.';
export const REPO_URL_INVALID = 'Invalid repository URL format';

/** The redeploy target of a workspace, or the spec's message saying why there is none. */
export function redeployTarget(repoUrl: string | null | undefined): RepoRef | { error: string } {
  if (!repoUrl) return { error: REPO_URL_MISSING };
  return parseRepoUrl(repoUrl) ?? { error: REPO_URL_INVALID };
}
