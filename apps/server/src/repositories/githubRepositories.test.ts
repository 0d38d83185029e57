import { generateKeyPairSync } from 'node:crypto';
import type { Branch, ContentEntry, Installation, Repository } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../infra/db/schema.js';
import { type GithubStandin, type StandinUser, startGithubStandin } from '../test/standins/github.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

/** Signs in through the real OAuth routes: /api/auth/github sets the state cookie, the callback checks it. */
async function signInWithGithub(ctx: TestContext, gh: GithubStandin, user: StandinUser): Promise<TestClient> {
  const client = new TestClient(ctx.app);
  const start = await client.get('/api/auth/github');
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin + authorize.pathname).toBe(`${gh.url}/login/oauth/authorize`);
  const state = authorize.searchParams.get('state')!;
  const callback = await client.get(
    `/api/auth/github/callback?code=${gh.codeFor(user)}&state=${encodeURIComponent(state)}`,
  );
  expect(callback.statusCode).toBe(302);
  return client;
}

describe('GitHub repositories against a local GitHub-shaped server', () => {
  let gh: GithubStandin;
  let ctx: TestContext;
  let ada: StandinUser;
  let client: TestClient;

  beforeAll(async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    gh = await startGithubStandin({
      appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    ada = gh.addUser({ login: 'ada', name: 'Ada King Lovelace', email: 'ada@example.com' });
    // 130 repositories in scrambled order, each updated on its own day.
    for (let i = 0; i < 130; i++) {
      const day = (i * 37) % 130;
      gh.addRepo(
        {
          owner: 'ada',
          name: `repo-${String(i).padStart(3, '0')}`,
          updated_at: new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toISOString().replace('.000', ''),
          language: i % 2 ? 'TypeScript' : null,
          private: i % 3 === 0,
        },
        [ada],
      );
    }
    gh.addRepo(
      {
        owner: 'ada',
        name: 'big',
        description: 'Many branches',
        stargazers_count: 42,
        updated_at: '2025-06-01T00:00:00Z',
        branches: Array.from({ length: 150 }, (_, i) => `branch-${String(i).padStart(3, '0')}`),
        files: { 'README.md': '# Big\nline "two" $(id)\n', 'src/app.ts': 'export {};\n' },
      },
      [ada],
    );
    // An organisation's installation of the App: its repositories are listed too.
    for (const name of ['api', 'web'])
      gh.addRepo({ owner: 'acme', name, updated_at: '2025-07-01T00:00:00Z' });
    gh.addInstallation({ account: 'acme', repos: ['acme/api', 'acme/web', 'ada/big'], users: ['ada'] });
    const other = gh.addUser({ login: 'grace', name: 'Grace' });
    gh.addRepo({ owner: 'grace', name: 'secret', private: true }, [other]);

    ctx = await createTestContext({
      env: {
        GITHUB_CLIENT_ID: 'client-id',
        GITHUB_CLIENT_SECRET: 'client-secret',
        GITHUB_API_URL: gh.url,
        GITHUB_WEB_URL: gh.url,
        GITHUB_APP_ID: '12345',
        GITHUB_APP_PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      },
    });
    client = await signInWithGithub(ctx, gh, ada);
  });

  afterAll(async () => {
    await ctx?.close();
    await gh?.close();
  });

  it('signs in end to end: the user is created with a split name, the email and an encrypted token', async () => {
    const me = (await client.get('/api/user')).json();
    expect(me).toMatchObject({
      login: 'ada',
      first_name: 'Ada',
      last_name: 'King Lovelace',
      email: 'ada@example.com',
      whitelisted: false,
    });
    const [row] = await ctx.platform.db.select().from(users).where(eq(users.login, 'ada'));
    expect(row?.githubTokenEnc).toBeTruthy();
    expect(row?.githubTokenEnc).not.toContain(ada.token);
    expect(await ctx.platform.vault.decrypt(row!.githubTokenEnc!)).toBe(ada.token);
    // Still on the waiting list: no repositories, but the permissions page may list installations.
    expect((await client.get('/api/github/repos')).statusCode).toBe(403);
    const installations = await client.get('/api/github/installations');
    expect(installations.statusCode).toBe(200);
    expect((installations.json() as Installation[]).map((entry) => entry.account?.login)).toEqual(['acme']);
    await ctx.platform.users.setAccess((await ctx.platform.users.findByLogin('ada'))!.id, true);
  });

  it('lists every repository across pages and installations, newest first, in GitHub shape', async () => {
    gh.state.requests.length = 0;
    const response = await client.get('/api/github/repos');
    expect(response.statusCode).toBe(200);
    const repos = response.json() as Repository[];
    expect(repos).toHaveLength(133);
    expect(new Set(repos.map((repo) => repo.id)).size).toBe(133);
    const times = repos.map((repo) => Date.parse(repo.updated_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(repos.slice(0, 3).map((repo) => repo.full_name)).toEqual(['acme/api', 'acme/web', 'ada/big']);
    expect(repos[2]).toEqual({
      id: expect.any(Number),
      name: 'big',
      full_name: 'ada/big',
      owner: { login: 'ada', avatar_url: `${gh.url}/avatars/ada` },
      private: false,
      description: 'Many branches',
      language: null,
      stargazers_count: 42,
      updated_at: '2025-06-01T00:00:00Z',
      default_branch: 'main',
      html_url: `${gh.url}/ada/big`,
    });
    const pages = gh.state.requests.filter((request) => request.path === '/user/repos');
    expect(pages.map((request) => [request.query.get('page') ?? '1', request.query.get('per_page')])).toEqual(
      [
        ['1', '100'],
        ['2', '100'],
      ],
    );
    expect(pages[0]?.authorization).toBe(`token ${ada.token}`);
  });

  it('passes branch paging through: more than 100 branches in one repository', async () => {
    const page = async (n: number) =>
      (await client.get(`/api/github/repos/ada/big/branches?page=${n}&per_page=100`)).json() as Branch[];
    const [first, second, third] = [await page(1), await page(2), await page(3)];
    expect(first).toHaveLength(100);
    expect(second).toHaveLength(50);
    expect(third).toEqual([]);
    expect(second[49]).toEqual({
      name: 'branch-149',
      commit: { sha: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
  });

  it('answers one repository and its contents; 404 for what does not exist or belongs to someone else', async () => {
    expect((await client.get('/api/github/repos/ada/big')).json()).toMatchObject({ full_name: 'ada/big' });
    const missing = await client.get('/api/github/repos/ada/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Repository ada/nope not found');
    expect((await client.get('/api/github/repos/grace/secret')).statusCode).toBe(404);

    const listing = (await client.get('/api/github/repos/ada/big/contents')).json() as ContentEntry[];
    expect(listing.map((entry) => [entry.name, entry.type])).toEqual([
      ['README.md', 'file'],
      ['src', 'dir'],
    ]);
    const readme = (await client.get('/api/github/repos/ada/big/contents/README.md')).json() as ContentEntry;
    expect(readme).toMatchObject({ type: 'file', path: 'README.md', encoding: 'base64' });
    expect(Buffer.from(readme.content!, 'base64').toString()).toBe('# Big\nline "two" $(id)\n');
    expect((await client.get('/api/github/repos/ada/big/contents/src')).json()).toMatchObject([
      { path: 'src/app.ts', type: 'file' },
    ]);
    expect((await client.get('/api/github/repos/ada/big/contents/nothing.txt')).statusCode).toBe(404);
  });

  it('refuses traversal before anything reaches GitHub', async () => {
    gh.state.requests.length = 0;
    // (inject normalises plain and %2e dot segments itself; localRepositories.test.ts sends those raw.)
    for (const attempt of [
      '..%2F..%2Fetc',
      'a%5cb',
      '%252e%252e/x',
      'src%2F..%2F..%2Fx',
      '%2Fetc%2Fpasswd',
    ]) {
      const response = await client.get(`/api/github/repos/ada/big/contents/${attempt}`);
      expect(response.statusCode, attempt).toBe(400);
    }
    expect((await client.get('/api/github/repos/ada/big%2F..%2Fx/branches')).statusCode).toBe(400);
    expect(gh.state.requests).toEqual([]);
  });

  it('turns the rate limit into a clear message with the reset time', async () => {
    gh.state.rateLimitResetAt = new Date(Date.UTC(2030, 0, 1, 14, 5));
    try {
      for (const url of ['/api/github/repos', '/api/github/repos/ada/big/branches?page=1&per_page=100']) {
        const response = await client.get(url);
        expect(response.statusCode).toBe(429);
        expect(response.json()).toMatchObject({
          code: 'rate_limited',
          error: 'GitHub rate limit reached; try again after 14:05 UTC',
        });
      }
    } finally {
      gh.state.rateLimitResetAt = undefined;
    }
  });

  it('clones with a repository-scoped installation token when the App is installed, else the user token', async () => {
    const user = (await ctx.platform.users.findByLogin('ada'))!;
    const appSource = await ctx.platform.repositories.cloneSource(user, 'acme', 'api');
    expect(appSource.url).toBe(`${gh.url}/acme/api.git`);
    const basic = appSource.headers?.Authorization?.replace(/^Basic /, '') ?? '';
    const [name, token] = Buffer.from(basic, 'base64').toString().split(':');
    expect(name).toBe('x-access-token');
    expect(gh.state.installationTokens.get(token!)?.repositories).toEqual(['api']);

    const userSource = await ctx.platform.repositories.cloneSource(user, 'ada', 'repo-001');
    expect(userSource.url).toBe(`${gh.url}/ada/repo-001.git`);
    expect(userSource.headers?.Authorization).toBe(
      `Basic ${Buffer.from(`x-access-token:${ada.token}`).toString('base64')}`,
    );
    await expect(ctx.platform.repositories.cloneSource(user, 'grace', 'secret')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('asks for a new sign-in when GitHub no longer accepts the token', async () => {
    const revoked = gh.addUser({ login: 'revoked', name: 'Re Voked' });
    const revokedClient = await signInWithGithub(ctx, gh, revoked);
    await ctx.platform.users.setAccess((await ctx.platform.users.findByLogin('revoked'))!.id, true);
    revoked.token = 'gho_revoked';
    const response = await revokedClient.get('/api/github/repos');
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('Your GitHub sign-in has expired. Please sign in again.');
  });
});
