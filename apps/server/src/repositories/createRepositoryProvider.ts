import type { Config } from '../config/config.js';
import { createGithubAppTokens } from '../infra/github/githubApi.js';
import type { Vault } from '../infra/vault/vault.js';
import { createGithubRepositoryProvider } from './githubRepositoryProvider.js';
import { createLocalRepositoryProvider } from './localRepositoryProvider.js';
import type { RepositoryProvider } from './repositoryProvider.js';

/**
 * What a workspace's repo_url starts with, before `/{owner}/{repo}`: the code host's web address, or in
 * local mode the repositories directory itself, so the URL shown is the repository's real location.
 */
export function repositoryLocationBase(config: Config): string {
  return config.authMode === 'local' ? config.localReposDir : config.github.webUrl;
}

/** GitHub when signing in with GitHub, else the local directory of repositories; the App only when fully set. */
export function createRepositoryProvider(config: Config, vault: Vault): RepositoryProvider {
  if (config.authMode === 'local') return createLocalRepositoryProvider({ reposDir: config.localReposDir });
  const { appId, appPrivateKey, apiUrl, webUrl } = config.github;
  const appTokens =
    appId && appPrivateKey ? createGithubAppTokens(apiUrl, { appId, privateKey: appPrivateKey }) : undefined;
  return createGithubRepositoryProvider({ apiUrl, webUrl, vault, appTokens });
}
