import { Octokit } from '@octokit/rest';
import { splitName } from '@slipway/contract';
import { DomainError } from '../../domain/errors.js';

/** A GitHub user as sign-in reads it (the users repository stores it). */
export interface GithubProfile {
  githubId: number;
  login: string;
  name: string | null;
  avatarUrl: string | null;
  email: string | null;
  firstName: string;
  lastName: string;
}

export interface GithubOAuthConfig {
  clientId: string;
  clientSecret: string;
  appSlug: string | undefined;
  apiUrl: string;
  webUrl: string;
  callbackUrl: string;
}

/** GitHub's OAuth web flow and the signed-in user's profile. Base URLs are configurable for the test stand-in. */
export function createGithubOAuth(config: GithubOAuthConfig) {
  return {
    /** Where the browser goes to sign in; with a GitHub App slug, installation doubles as sign-in. */
    authorizeUrl(state: string, install: boolean): string {
      if (install && config.appSlug) {
        const url = new URL(`${config.webUrl}/apps/${encodeURIComponent(config.appSlug)}/installations/new`);
        url.searchParams.set('state', state);
        return url.toString();
      }
      const url = new URL(`${config.webUrl}/login/oauth/authorize`);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('redirect_uri', config.callbackUrl);
      url.searchParams.set('scope', 'read:user user:email repo');
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode(code: string): Promise<string> {
      const response = await fetch(`${config.webUrl}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          code,
          redirect_uri: config.callbackUrl,
        }),
        signal: AbortSignal.timeout(15_000),
      }).catch(() => {
        throw new DomainError('upstream_failed', 'GitHub could not be reached. Please try again.');
      });
      const answer = (await response.json().catch(() => ({}))) as {
        access_token?: string;
        error_description?: string;
      };
      if (!response.ok || !answer.access_token) {
        throw new DomainError(
          'unauthenticated',
          `GitHub sign-in failed: ${answer.error_description ?? 'the code was refused'}`,
        );
      }
      return answer.access_token;
    },

    async fetchProfile(token: string): Promise<GithubProfile> {
      const octokit = new Octokit({ auth: token, baseUrl: config.apiUrl, request: { timeout: 15_000 } });
      const { data: user } = await octokit.rest.users.getAuthenticated();
      let email = user.email ?? null;
      if (!email) {
        // The primary verified address, when the token may read it.
        const emails = await octokit.rest.users.listEmailsForAuthenticatedUser().catch(() => undefined);
        email = emails?.data.find((entry) => entry.primary && entry.verified)?.email ?? null;
      }
      const { firstName, lastName } = splitName(user.name);
      return {
        githubId: user.id,
        login: user.login,
        name: user.name ?? null,
        avatarUrl: user.avatar_url ?? null,
        email,
        firstName,
        lastName,
      };
    },
  };
}

export type GithubOAuth = ReturnType<typeof createGithubOAuth>;
