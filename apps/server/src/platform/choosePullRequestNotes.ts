import type { Config } from '../config/config.js';
import type { PullRequestNotes } from '../previews/pullRequestNotes.js';

/**
 * Previews write on pull requests through the GitHub App (its installation on the repository) when one is
 * configured in GitHub mode; locally, and without an App, nothing is posted and the dashboard shows the state.
 */
export async function choosePullRequestNotes(config: Config): Promise<PullRequestNotes | undefined> {
  const { appId, appPrivateKey, apiUrl } = config.github;
  if (config.authMode !== 'github' || !appId || !appPrivateKey) return undefined;
  const [{ createGithubAppTokens }, { createGithubPullRequestNotes }] = await Promise.all([
    import('../infra/github/githubAppTokens.js'),
    import('../infra/github/githubPullRequestNotes.js'),
  ]);
  const tokens = createGithubAppTokens(apiUrl, { appId, privateKey: appPrivateKey });
  return createGithubPullRequestNotes({
    apiUrl,
    tokenFor: (owner, repo) => tokens.pullRequestNotesToken(owner, repo),
  });
}
