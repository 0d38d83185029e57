import type { Config } from '../config/config.js';
import type { Vault } from '../infra/vault/vault.js';
import { createLocalRepositoryProvider } from '../repositories/localRepositoryProvider.js';
import type { RepositoryProvider } from '../repositories/repositoryProvider.js';

/**
 * GitHub when signing in with GitHub, else the local directory of repositories; the App only when fully set.
 * Octokit (and @octokit/auth-app) are imported only in the mode that uses them.
 */
export async function chooseRepositoryProvider(config: Config, vault: Vault): Promise<RepositoryProvider> {
  if (config.authMode === 'local') return createLocalRepositoryProvider({ reposDir: config.localReposDir });
  const { appId, appPrivateKey, apiUrl, webUrl } = config.github;
  const appTokens =
    appId && appPrivateKey
      ? (await import('../infra/github/githubAppTokens.js')).createGithubAppTokens(apiUrl, {
          appId,
          privateKey: appPrivateKey,
        })
      : undefined;
  const { createGithubRepositoryProvider } = await import('../repositories/githubRepositoryProvider.js');
  return createGithubRepositoryProvider({ apiUrl, webUrl, vault, appTokens });
}
