import type { Config } from '../config/config.js';
import type { Vault } from '../infra/vault/vault.js';
import { createLocalRepositoryProvider } from './localRepositoryProvider.js';
import type { RepositoryProvider } from './repositoryProvider.js';

/**
 * What a workspace's repo_url starts with, before `/{owner}/{repo}`: the code host's web address, or in
 * local mode the repositories directory itself, so the URL shown is the repository's real location.
 */
export function repositoryLocationBase(config: Config): string {
  return config.authMode === 'local' ? config.localReposDir : config.github.webUrl;
}

/**
 * GitHub when signing in with GitHub, else the local directory of repositories; the App only when fully set.
 * Octokit (and @octokit/auth-app) are imported only in the mode that uses them.
 */
export async function createRepositoryProvider(config: Config, vault: Vault): Promise<RepositoryProvider> {
  if (config.authMode === 'local') return createLocalRepositoryProvider({ reposDir: config.localReposDir });
  const { appId, appPrivateKey, apiUrl, webUrl } = config.github;
  const appTokens =
    appId && appPrivateKey
      ? (await import('../infra/github/githubAppTokens.js')).createGithubAppTokens(apiUrl, {
          appId,
          privateKey: appPrivateKey,
        })
      : undefined;
  const { createGithubRepositoryProvider } = await import('./githubRepositoryProvider.js');
  return createGithubRepositoryProvider({ apiUrl, webUrl, vault, appTokens });
}
