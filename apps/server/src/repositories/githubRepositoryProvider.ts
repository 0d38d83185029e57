import type { Octokit } from '@octokit/rest';
import type { Branch, ContentEntry, Contents, Installation, Repository } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import { createOctokit, githubError } from '../infra/github/githubApi.js';
import type { GithubAppTokens } from '../infra/github/githubAppTokens.js';
import type { Vault } from '../infra/vault/vault.js';
import type { UserRow } from '../users/usersRepository.js';
import { githubCloneSource } from './cloneSource.js';
import { assertRepoNames, normalizeContentsPath } from './repositoryInput.js';
import { byUpdatedAtDesc, type RepositoryProvider } from './repositoryProvider.js';

/** Enough for any person; a bound so one account with an absurd number of repositories cannot hang a request. */
const MAX_REPOSITORIES = 5000;

// GitHub's objects carry many more fields; these are the ones we read, all optional to survive partial answers.
interface GithubRepository {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string; avatar_url?: string } | null;
  private: boolean;
  description?: string | null;
  language?: string | null;
  stargazers_count?: number;
  updated_at?: string | null;
  pushed_at?: string | null;
  default_branch?: string;
  html_url: string;
}

interface GithubContentEntry {
  type: string;
  name: string;
  path: string;
  sha: string;
  size?: number;
  html_url?: string | null;
  download_url?: string | null;
  encoding?: string;
  content?: string;
  target?: string;
}

interface GithubInstallation {
  id: number;
  account?: { login?: string; avatar_url?: string } | null;
  app_slug?: string;
  target_type?: string;
  repository_selection?: string;
  html_url?: string;
}

function presentRepository(raw: GithubRepository): Repository {
  return {
    id: raw.id,
    name: raw.name,
    full_name: raw.full_name,
    owner: { login: raw.owner?.login ?? '', avatar_url: raw.owner?.avatar_url ?? '' },
    private: raw.private,
    description: raw.description ?? null,
    language: raw.language ?? null,
    stargazers_count: raw.stargazers_count ?? 0,
    updated_at: raw.updated_at ?? raw.pushed_at ?? new Date(0).toISOString(),
    default_branch: raw.default_branch ?? 'main',
    html_url: raw.html_url,
  };
}

const CONTENT_TYPES = new Set(['file', 'dir', 'symlink', 'submodule']);

function presentContentEntry(raw: GithubContentEntry): ContentEntry {
  const entry: ContentEntry = {
    type: (CONTENT_TYPES.has(raw.type) ? raw.type : 'file') as ContentEntry['type'],
    name: raw.name,
    path: raw.path,
    sha: raw.sha,
    size: raw.size ?? 0,
    html_url: raw.html_url ?? null,
    download_url: raw.download_url ?? null,
  };
  if (raw.content !== undefined) {
    entry.encoding = raw.encoding === 'base64' ? 'base64' : 'none';
    entry.content = raw.content;
  }
  if (raw.target !== undefined) entry.target = raw.target;
  return entry;
}

function presentInstallation(raw: GithubInstallation): Installation {
  return {
    id: raw.id,
    account: raw.account
      ? { login: raw.account.login ?? '', avatar_url: raw.account.avatar_url ?? '' }
      : null,
    app_slug: raw.app_slug ?? null,
    target_type: raw.target_type ?? null,
    repository_selection: raw.repository_selection ?? null,
    html_url: raw.html_url ?? null,
  };
}

/** The path as URL segments: each one encoded, so nothing in a file name can change the request. */
const encodePath = (value: string) => value.split('/').map(encodeURIComponent).join('/');

/**
 * GitHub through Octokit, acting as the signed-in user with the token stored (encrypted) at sign-in.
 * With a GitHub App configured, the repositories of the user's installations are listed too, and clones
 * use a short-lived installation token scoped to the one repository.
 */
export function createGithubRepositoryProvider(deps: {
  apiUrl: string;
  webUrl: string;
  vault: Vault;
  appTokens: GithubAppTokens | undefined;
}): RepositoryProvider {
  async function userToken(user: UserRow): Promise<string> {
    const expired = new DomainError(
      'unauthenticated',
      'Your GitHub sign-in has expired. Please sign in again.',
    );
    if (!user.githubTokenEnc) throw expired;
    return deps.vault.decrypt(user.githubTokenEnc).catch(() => {
      throw expired;
    });
  }

  async function client(user: UserRow): Promise<Octokit> {
    return createOctokit(deps.apiUrl, await userToken(user));
  }

  /** The user's installations of our App; a token GitHub says cannot list them simply has none. */
  async function installationsOf(octokit: Octokit): Promise<GithubInstallation[]> {
    try {
      return (await octokit.paginate('GET /user/installations', { per_page: 100 })) as GithubInstallation[];
    } catch (error) {
      const status = (error as { status?: number }).status;
      const mapped = githubError(error);
      if (mapped.code !== 'rate_limited' && (status === 401 || status === 403 || status === 404)) return [];
      throw mapped;
    }
  }

  async function installationFor(octokit: Octokit, owner: string): Promise<GithubInstallation | undefined> {
    const installations = await installationsOf(octokit);
    return installations.find(
      (installation) => installation.account?.login?.toLowerCase() === owner.toLowerCase(),
    );
  }

  return {
    kind: 'github',

    async listRepositories(user) {
      const octokit = await client(user);
      const seen = new Map<number, Repository>();
      const collect = (repositories: GithubRepository[], done: () => void) => {
        for (const repository of repositories) seen.set(repository.id, presentRepository(repository));
        if (seen.size >= MAX_REPOSITORIES) done();
        return [];
      };
      try {
        await octokit.paginate(
          'GET /user/repos',
          { per_page: 100, sort: 'updated', affiliation: 'owner,collaborator,organization_member' },
          (response, done) => collect(response.data as GithubRepository[], done),
        );
        if (deps.appTokens) {
          for (const installation of await installationsOf(octokit)) {
            if (seen.size >= MAX_REPOSITORIES) break;
            await octokit.paginate(
              'GET /user/installations/{installation_id}/repositories',
              { installation_id: installation.id, per_page: 100 },
              (response, done) => collect(response.data as unknown as GithubRepository[], done),
            );
          }
        }
      } catch (error) {
        throw githubError(error);
      }
      return [...seen.values()].sort(byUpdatedAtDesc);
    },

    async getRepository(user, owner, repo) {
      assertRepoNames(owner, repo);
      const octokit = await client(user);
      const response = await octokit.rest.repos.get({ owner, repo }).catch((error) => {
        throw githubError(error, `Repository ${owner}/${repo} not found`);
      });
      return presentRepository(response.data as GithubRepository);
    },

    async getContents(user, owner, repo, rawPath, ref): Promise<Contents> {
      assertRepoNames(owner, repo);
      const contentsPath = normalizeContentsPath(rawPath);
      const octokit = await client(user);
      const url = `GET /repos/{owner}/{repo}/contents/${encodePath(contentsPath)}`;
      const response = await octokit.request(url, { owner, repo, ...(ref ? { ref } : {}) }).catch((error) => {
        throw githubError(error, `No file or folder at "${contentsPath}" in ${owner}/${repo}`);
      });
      const data = response.data as GithubContentEntry | GithubContentEntry[];
      return Array.isArray(data) ? data.map(presentContentEntry) : presentContentEntry(data);
    },

    async listBranches(user, owner, repo, page, perPage) {
      assertRepoNames(owner, repo);
      const octokit = await client(user);
      const response = await octokit.rest.repos
        .listBranches({ owner, repo, page, per_page: perPage })
        .catch((error) => {
          throw githubError(error, `Repository ${owner}/${repo} not found`);
        });
      return response.data.map(
        (branch): Branch => ({ name: branch.name, commit: { sha: branch.commit.sha } }),
      );
    },

    async listInstallations(user) {
      if (!user.githubTokenEnc) return [];
      return (await installationsOf(await client(user))).map(presentInstallation);
    },

    async cloneSource(user, owner, repo) {
      assertRepoNames(owner, repo);
      const token = await userToken(user);
      const octokit = createOctokit(deps.apiUrl, token);
      // The user must see the repository themselves: an installation token alone could reach an
      // organisation's repositories this user has no access to.
      const { data } = await octokit.rest.repos.get({ owner, repo }).catch((error) => {
        throw githubError(error, `Repository ${owner}/${repo} not found`);
      });
      const canonicalOwner = data.owner.login;
      const installation = deps.appTokens ? await installationFor(octokit, canonicalOwner) : undefined;
      if (deps.appTokens && installation) {
        const installationToken = await deps.appTokens
          .repositoryToken(installation.id, data.name)
          .catch((error) => {
            throw githubError(error, `The GitHub App cannot reach ${owner}/${repo}`);
          });
        return githubCloneSource(deps.webUrl, canonicalOwner, data.name, installationToken);
      }
      return githubCloneSource(deps.webUrl, canonicalOwner, data.name, token);
    },
  };
}
