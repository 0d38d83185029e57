import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GithubStandin, startGithubStandin } from '../../test/standins/github.js';
import { createGithubAppTokens } from './githubAppTokens.js';
import { createGithubPullRequestNotes } from './githubPullRequestNotes.js';

const SHA = 'a'.repeat(40);

/**
 * Previews write on pull requests through the GitHub App, as the server wires it (choosePullRequestNotes):
 * the App's JWT finds the installation covering the repository, an installation token scoped to that one
 * repository with write access to issues and statuses writes the comment and the status.
 */
describe('pull request notes through the GitHub App installation', () => {
  let gh: GithubStandin;
  let notes: ReturnType<typeof createGithubPullRequestNotes>;

  beforeAll(async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    gh = await startGithubStandin({
      appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    for (const name of ['shop', 'billing']) gh.addRepo({ owner: 'acme', name });
    gh.addInstallation({ account: 'acme', repos: ['acme/shop', 'acme/billing'], users: [] });
    const tokens = createGithubAppTokens(gh.url, {
      appId: '12345',
      privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    });
    notes = createGithubPullRequestNotes({
      apiUrl: gh.url,
      tokenFor: (owner, repo) => tokens.pullRequestNotesToken(owner, repo),
    });
  });
  afterAll(() => gh?.close());

  it('creates one comment, then edits it in place, as the App, and sets the commit status', async () => {
    const pr = { owner: 'acme', repo: 'shop', number: 7 };
    const id = await notes.writeComment(pr, 'Deploying', null);
    expect(await notes.writeComment(pr, 'Live', id)).toBe(id);
    await notes.setStatus(pr, SHA, { state: 'success', description: 'Preview live', targetUrl: null });

    expect(gh.state.comments).toEqual([
      expect.objectContaining({ id, issue: 'acme/shop#7', body: 'Live', login: 'slipway[bot]', updates: 1 }),
    ]);
    expect(gh.state.statuses).toEqual([
      expect.objectContaining({ repo: 'acme/shop', sha: SHA, state: 'success', context: 'slipway/preview' }),
    ]);
    // Every write went with an installation token scoped to this repository alone, never the App's JWT.
    const writes = gh.state.requests.filter(
      (request) => request.method !== 'GET' && request.path.startsWith('/repos/'),
    );
    expect(writes).toHaveLength(3);
    for (const write of writes) {
      const token = gh.state.installationTokens.get(
        write.authorization?.replace(/^(token|bearer) /i, '') ?? '',
      );
      expect(token).toMatchObject({
        repositories: ['shop'],
        permissions: expect.objectContaining({ issues: 'write', statuses: 'write' }),
      });
    }
  });

  it('cannot write on a repository the App is not installed on', async () => {
    gh.addRepo({ owner: 'stranger', name: 'elsewhere' });
    await expect(
      notes.writeComment({ owner: 'stranger', repo: 'elsewhere', number: 1 }, 'x', null),
    ).rejects.toThrow();
    expect(gh.state.comments.filter((comment) => comment.issue.startsWith('stranger/'))).toEqual([]);
  });

  it("a token scoped to one repository is refused on the installation's other repositories", async () => {
    const scoped = [...gh.state.installationTokens.entries()].find(
      ([, token]) => token.repositories[0] === 'shop',
    );
    const response = await fetch(`${gh.url}/repos/acme/billing/issues/1/comments`, {
      method: 'POST',
      headers: { authorization: `token ${scoped![0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'not mine to write' }),
    });
    expect(response.status).toBe(403);
    expect(gh.state.comments.filter((comment) => comment.issue.startsWith('acme/billing'))).toEqual([]);
  });
});
