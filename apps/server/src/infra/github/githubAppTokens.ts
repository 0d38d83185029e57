import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { quietLog } from './githubApi.js';

// Its own module: @octokit/auth-app is loaded only by a server configured with a GitHub App.
export interface GithubAppCredentials {
  appId: string;
  privateKey: string;
}

/**
 * Short-lived installation tokens of the GitHub App, scoped to one repository and read-only, for cloning.
 * @octokit/auth-app signs the app's JWT and caches tokens until shortly before they expire.
 */
export function createGithubAppTokens(apiUrl: string, credentials: GithubAppCredentials) {
  const auth = createAppAuth({
    appId: credentials.appId,
    // Keys often arrive from env files with literal "\n".
    privateKey: credentials.privateKey.replace(/\\n/g, '\n'),
    request: new Octokit({ baseUrl: apiUrl, userAgent: 'slipway', log: quietLog }).request,
  });
  const request = new Octokit({ baseUrl: apiUrl, userAgent: 'slipway', log: quietLog }).request;
  return {
    /**
     * A token that may write a pull request's comments and its commits' statuses in one repository (previews),
     * from the installation GitHub says covers it.
     */
    async pullRequestNotesToken(owner: string, repo: string): Promise<string> {
      const { token: jwt } = await auth({ type: 'app' });
      const { data } = await request('GET /repos/{owner}/{repo}/installation', {
        owner,
        repo,
        headers: { authorization: `bearer ${jwt}` },
      });
      const result = await auth({
        type: 'installation',
        installationId: data.id,
        repositoryNames: [repo],
        permissions: { issues: 'write', pull_requests: 'write', statuses: 'write', metadata: 'read' },
      });
      return result.token;
    },
    async repositoryToken(installationId: number, repo: string): Promise<string> {
      const result = await auth({
        type: 'installation',
        installationId,
        repositoryNames: [repo],
        permissions: { contents: 'read', metadata: 'read' },
      });
      return result.token;
    },
  };
}

export type GithubAppTokens = ReturnType<typeof createGithubAppTokens>;
