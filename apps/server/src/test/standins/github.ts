import { createHash, createVerify, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  handleAppInstallationRequests,
  installationTokenMayWrite,
  type StandinInstallation,
  type StandinInstallationToken,
} from './githubAppInstallations.js';
import {
  handlePullRequestWrites,
  type StandinComment,
  type StandinStatus,
} from './githubPullRequestWrites.js';

/**
 * A local GitHub for tests: node:http on 127.0.0.1 answering the documented request and response shapes
 * of the endpoints Slipway calls (OAuth web flow, users, repositories, branches, contents, installations,
 * app installation tokens, pull request comments and commit statuses: githubPullRequestWrites.ts), with GitHub's Link-header paging, rate-limit answers and 404s.
 */

export interface StandinUser {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  token: string;
  /** Full names of repositories this user can see directly. */
  repos: string[];
}

export interface StandinRepo {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  description: string | null;
  language: string | null;
  stargazers_count: number;
  updated_at: string;
  default_branch: string;
  branches: string[];
  /** Committed files by path. */
  files: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

const sha = (text: string) => createHash('sha1').update(text).digest('hex');

export async function startGithubStandin(options: { appPublicKey?: string } = {}) {
  const users = new Map<string, StandinUser>();
  const repos = new Map<string, StandinRepo>();
  const installations: StandinInstallation[] = [];
  const codes = new Map<string, string>();
  const installationTokens = new Map<string, StandinInstallationToken>();
  const requests: RecordedRequest[] = [];
  let nextId = 1000;
  let baseUrl = '';

  const state = {
    requests,
    comments: [] as StandinComment[],
    statuses: [] as StandinStatus[],
    installationTokens,
    /** When set, every API call answers GitHub's primary rate-limit 403. */
    rateLimitResetAt: undefined as Date | undefined,
  };

  function send(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  }
  const notFound = (response: ServerResponse) =>
    send(response, 404, {
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest',
      status: '404',
    });

  /** GitHub's paging: `page`/`per_page` (30 by default, 100 at most) and a Link header with next and last. */
  function paged<T>(response: ServerResponse, url: URL, items: T[], wrap?: (page: T[]) => unknown) {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30) || 30, 100);
    const page = Math.max(Number(url.searchParams.get('page') ?? 1) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (n: number, rel: string) => {
      const target = new URL(url.pathname + url.search, baseUrl);
      target.searchParams.set('per_page', String(perPage));
      target.searchParams.set('page', String(n));
      return `<${target}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'), link(1, 'first'));
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    const slice = items.slice((page - 1) * perPage, page * perPage);
    send(response, 200, wrap ? wrap(slice) : slice, links.length ? { link: links.join(', ') } : {});
  }

  function repoJson(repo: StandinRepo) {
    return {
      id: repo.id,
      node_id: `R_${repo.id}`,
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      private: repo.private,
      owner: { login: repo.owner, id: 1, avatar_url: `${baseUrl}/avatars/${repo.owner}`, type: 'User' },
      html_url: `${baseUrl}/${repo.owner}/${repo.name}`,
      description: repo.description,
      fork: false,
      url: `${baseUrl}/repos/${repo.owner}/${repo.name}`,
      language: repo.language,
      stargazers_count: repo.stargazers_count,
      watchers_count: repo.stargazers_count,
      default_branch: repo.default_branch,
      pushed_at: repo.updated_at,
      created_at: '2020-01-01T00:00:00Z',
      updated_at: repo.updated_at,
      visibility: repo.private ? 'private' : 'public',
    };
  }

  function installationJson(installation: StandinInstallation) {
    return {
      id: installation.id,
      account: {
        login: installation.account,
        id: 7,
        avatar_url: `${baseUrl}/avatars/${installation.account}`,
      },
      app_id: 1,
      app_slug: 'slipway-test',
      target_type: 'User',
      repository_selection: 'selected',
      html_url: `${baseUrl}/settings/installations/${installation.id}`,
      permissions: { contents: 'read', metadata: 'read' },
    };
  }

  function contentEntry(repo: StandinRepo, path: string, withContent: boolean) {
    const isFile = path in repo.files;
    const base = {
      type: isFile ? 'file' : 'dir',
      name: path.split('/').pop(),
      path,
      sha: sha(isFile ? repo.files[path]! : path),
      size: isFile ? Buffer.byteLength(repo.files[path]!) : 0,
      url: `${baseUrl}/repos/${repo.owner}/${repo.name}/contents/${path}`,
      html_url: `${baseUrl}/${repo.owner}/${repo.name}/blob/${repo.default_branch}/${path}`,
      git_url: null,
      download_url: isFile ? `${baseUrl}/raw/${repo.owner}/${repo.name}/${path}` : null,
      _links: {},
    };
    if (!isFile || !withContent) return base;
    // GitHub wraps base64 at 60 characters.
    const encoded = Buffer.from(repo.files[path]!)
      .toString('base64')
      .replace(/(.{60})/g, '$1\n');
    return { ...base, encoding: 'base64', content: encoded };
  }

  function contents(response: ServerResponse, repo: StandinRepo, path: string) {
    if (path in repo.files) return send(response, 200, contentEntry(repo, path, true));
    const prefix = path ? `${path}/` : '';
    const children = new Set<string>();
    for (const file of Object.keys(repo.files)) {
      if (file.startsWith(prefix)) children.add(prefix + file.slice(prefix.length).split('/')[0]);
    }
    if (children.size === 0) return notFound(response);
    send(
      response,
      200,
      [...children].sort().map((child) => contentEntry(repo, child, false)),
    );
  }

  /** RS256 over "header.payload" with the App's public key, as GitHub checks the App's JWT. */
  function validAppJwt(authorization: string | undefined): boolean {
    const token = authorization?.replace(/^bearer /i, '') ?? '';
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature || !options.appPublicKey) return false;
    return createVerify('RSA-SHA256')
      .update(`${header}.${payload}`)
      .verify(options.appPublicKey, Buffer.from(signature, 'base64url'));
  }

  /** A pull request's comment or a commit status written with an installation token (the App's, as previews do). */
  function installationTokenWrite(
    app: { method: string; path: string; body: string; authorization?: string },
    response: ServerResponse,
  ): boolean {
    const token = installationTokens.get(app.authorization?.replace(/^(token|bearer) /i, '') ?? '');
    const repo = app.path.match(/^\/repos\/([^/]+)\/([^/]+)\/(issues|statuses)\//);
    if (!token || !repo || app.method === 'GET') return false;
    const permission = repo[3] === 'statuses' ? 'statuses' : 'issues';
    if (!installationTokenMayWrite(token, installations, `${repo[1]}/${repo[2]}`, permission)) {
      send(response, 403, { message: 'Resource not accessible by integration' });
      return true;
    }
    const write = { ...app, login: 'slipway[bot]' };
    return handlePullRequestWrites(write, response, { state, send, notFound, nextId: () => nextId++ });
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', baseUrl);
    const authorization = request.headers.authorization;
    requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      authorization,
      body,
    });

    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const params = request.headers['content-type']?.includes('json')
        ? (JSON.parse(body) as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(body));
      const login = codes.get(params.code ?? '');
      codes.delete(params.code ?? '');
      const user = login ? users.get(login) : undefined;
      if (!user) {
        return send(response, 200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      }
      return send(response, 200, {
        access_token: user.token,
        token_type: 'bearer',
        scope: 'read:user,repo,user:email',
      });
    }

    if (state.rateLimitResetAt) {
      const reset = String(Math.floor(state.rateLimitResetAt.getTime() / 1000));
      return send(
        response,
        403,
        {
          message: 'API rate limit exceeded for user ID 1.',
          documentation_url: 'https://docs.github.com/rest',
        },
        {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-used': '5000',
          'x-ratelimit-reset': reset,
        },
      );
    }

    const app = { method: request.method ?? 'GET', path: url.pathname, body, authorization };
    const appDeps = { installations, installationTokens, validAppJwt, installationJson, send, notFound };
    if (handleAppInstallationRequests(app, response, appDeps)) return;
    if (installationTokenWrite(app, response)) return;

    // Octokit sends OAuth tokens as "token X"; GitHub also accepts "Bearer X".
    const sent = authorization?.replace(/^(token|bearer) /i, '');
    const user = [...users.values()].find((candidate) => sent === candidate.token);
    if (!user)
      return send(response, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
      });
    const visible = (fullName: string) =>
      user.repos.includes(fullName) ||
      installations.some((entry) => entry.users.includes(user.login) && entry.repos.includes(fullName));

    if (url.pathname === '/user') {
      return send(response, 200, {
        login: user.login,
        id: user.id,
        avatar_url: `${baseUrl}/avatars/${user.login}`,
        type: 'User',
        name: user.name,
        email: null,
      });
    }
    if (url.pathname === '/user/emails') {
      return send(
        response,
        200,
        user.email ? [{ email: user.email, primary: true, verified: true, visibility: 'private' }] : [],
      );
    }
    if (url.pathname === '/user/repos') {
      const list = user.repos
        .map((name) => repos.get(name)!)
        .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
      return paged(response, url, list.map(repoJson));
    }
    if (url.pathname === '/user/installations') {
      const mine = installations.filter((entry) => entry.users.includes(user.login)).map(installationJson);
      return paged(response, url, mine, (page) => ({ total_count: mine.length, installations: page }));
    }
    const installationRepos = url.pathname.match(/^\/user\/installations\/(\d+)\/repositories$/);
    if (installationRepos) {
      const installation = installations.find(
        (entry) => entry.id === Number(installationRepos[1]) && entry.users.includes(user.login),
      );
      if (!installation) return notFound(response);
      const list = installation.repos.map((name) => repoJson(repos.get(name)!));
      return paged(response, url, list, (page) => ({ total_count: list.length, repositories: page }));
    }

    const write = { method: request.method ?? 'GET', path: url.pathname, body, login: user.login };
    if (handlePullRequestWrites(write, response, { state, send, notFound, nextId: () => nextId++ })) return;

    const repoPath = url.pathname.match(/^\/repos\/([^/]+)\/([^/]+)(?:\/(branches|contents)(?:\/(.*))?)?$/);
    if (repoPath) {
      const fullName = `${decodeURIComponent(repoPath[1]!)}/${decodeURIComponent(repoPath[2]!)}`;
      const repo = repos.get(fullName);
      if (!repo || !visible(fullName)) return notFound(response);
      if (repoPath[3] === 'branches') {
        return paged(
          response,
          url,
          repo.branches.map((name) => ({ name, commit: { sha: sha(name), url: '' }, protected: false })),
        );
      }
      if (repoPath[3] === 'contents') {
        const path = (repoPath[4] ?? '').split('/').map(decodeURIComponent).join('/').replace(/\/$/, '');
        return contents(response, repo, path);
      }
      return send(response, 200, repoJson(repo));
    }
    notFound(response);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    state,
    addUser(values: { login: string; name?: string | null; email?: string | null }): StandinUser {
      const user: StandinUser = {
        id: nextId++,
        login: values.login,
        name: values.name ?? null,
        email: values.email ?? null,
        token: `gho_${randomBytes(12).toString('hex')}`,
        repos: [],
      };
      users.set(user.login, user);
      return user;
    },
    /** A one-time OAuth code that the token endpoint exchanges for the user's token. */
    codeFor(user: StandinUser): string {
      const code = randomBytes(10).toString('hex');
      codes.set(code, user.login);
      return code;
    },
    addRepo(
      values: Partial<StandinRepo> & { owner: string; name: string },
      visibleTo: StandinUser[] = [],
    ): StandinRepo {
      const repo: StandinRepo = {
        id: nextId++,
        private: false,
        description: null,
        language: null,
        stargazers_count: 0,
        updated_at: '2024-01-01T00:00:00Z',
        default_branch: 'main',
        branches: ['main'],
        files: {},
        ...values,
      };
      repos.set(`${repo.owner}/${repo.name}`, repo);
      for (const user of visibleTo) user.repos.push(`${repo.owner}/${repo.name}`);
      return repo;
    },
    addInstallation(values: Omit<StandinInstallation, 'id'>): StandinInstallation {
      const installation = { id: nextId++, ...values };
      installations.push(installation);
      return installation;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type GithubStandin = Awaited<ReturnType<typeof startGithubStandin>>;
