// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell expansions are the test data here
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Branch, ContentEntry, Repository } from '@slipway/contract';
import { VM_SIZES } from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

// Git refs may not contain spaces, so `${IFS}` stands for the space a shell would split on.
const EVIL_BRANCH = 'feat;$(touch${IFS}pwned)';
const EVIL_BACKTICKS = 'fix`touch${IFS}pwned`|&<>';

function git(cwd: string, args: string[], date = '2024-03-01T12:00:00Z') {
  return execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  }).toString();
}

/** A working copy with the given files committed on `main` at `date`. */
function makeRepo(dir: string, files: Record<string, string>, date: string) {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  git(dir, ['add', '--all']);
  git(dir, ['commit', '--quiet', '-m', 'initial'], date);
}

/** Every file named 'pwned' anywhere under these directories. */
function findPwned(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    existsSync(dir)
      ? (readdirSync(dir, { recursive: true }) as string[]).filter((file) => path.basename(file) === 'pwned')
      : [],
  );
}

describe('local repositories (a directory of real git repositories)', () => {
  let root: string;
  let ctx: TestContext;
  let client: TestClient;
  const webApp = () => path.join(root, 'alice', 'web-app');

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'slipway-repos-'));
    makeRepo(
      webApp(),
      {
        'README.md': '# Web App\n\nA tiny web app.\n',
        'src/index.ts': 'export const hello = "world";\n',
        'src/util.ts': 'export {};\n',
        'src/view.tsx': 'export {};\n',
        'scripts/run.sh': 'echo hi\n',
        Dockerfile: 'FROM busybox:1.36\n',
      },
      '2024-03-01T12:00:00Z',
    );
    git(webApp(), ['branch', 'develop']);
    git(webApp(), ['branch', EVIL_BACKTICKS]);
    git(webApp(), ['checkout', '--quiet', '-b', EVIL_BRANCH]);
    writeFileSync(path.join(webApp(), 'evil.txt'), 'from the evil branch\n');
    git(webApp(), ['add', 'evil.txt']);
    git(webApp(), ['commit', '--quiet', '-m', 'evil'], '2024-03-02T12:00:00Z');
    git(webApp(), ['checkout', '--quiet', 'main']);
    const head = git(webApp(), ['rev-parse', 'HEAD']).trim();
    const creates = Array.from(
      { length: 120 },
      (_, i) => `create refs/heads/b-${String(i).padStart(3, '0')} ${head}\n`,
    );
    execFileSync('git', ['update-ref', '--stdin'], { cwd: webApp(), input: creates.join('') });

    // A bare repository with a description file, the newest of all.
    const source = path.join(root, '..', `${path.basename(root)}-src`);
    makeRepo(
      source,
      { 'main.go': 'package main\n', 'cmd/tool/tool.go': 'package main\n' },
      '2024-05-01T00:00:00Z',
    );
    git(root, ['clone', '--quiet', '--bare', source, path.join(root, 'bob', 'service.git')]);
    writeFileSync(path.join(root, 'bob', 'service.git', 'description'), "Bob's Go service\n");
    rmSync(source, { recursive: true, force: true });

    makeRepo(
      path.join(root, 'alice', 'py-tool'),
      { 'tool.py': 'print(1)\n', 'a.html': '<p>' },
      '2023-01-01T00:00:00Z',
    );
    mkdirSync(path.join(root, 'alice', 'empty'));
    git(path.join(root, 'alice', 'empty'), ['init', '--quiet', '--initial-branch=trunk']);
    mkdirSync(path.join(root, 'alice', 'not-a-repo'));
    mkdirSync(path.join(root, 'bad name!', 'x'), { recursive: true });

    ctx = await createTestContext({ env: { LOCAL_REPOS_DIR: root } });
    client = await new TestClient(ctx.app).signIn('operator');
  });

  afterAll(async () => {
    await ctx?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists every repository, newest commit first, with language, description and GitHub fields', async () => {
    const response = await client.get('/api/github/repos');
    expect(response.statusCode).toBe(200);
    const repos = response.json() as Repository[];
    // The empty repository has no commit, so its directory's time stands in (it was made just now).
    expect(repos.map((repo) => repo.full_name)).toEqual([
      'alice/empty',
      'bob/service',
      'alice/web-app',
      'alice/py-tool',
    ]);
    const [empty, service, web, py] = repos;
    expect(empty).toMatchObject({ language: null, description: null, default_branch: 'trunk' });
    expect(service).toMatchObject({
      name: 'service',
      owner: { login: 'bob' },
      description: "Bob's Go service",
      language: 'Go',
      private: true,
      stargazers_count: 0,
      updated_at: '2024-05-01T00:00:00Z',
      default_branch: 'main',
    });
    expect(web).toMatchObject({
      description: 'Web App',
      language: 'TypeScript',
      updated_at: '2024-03-02T12:00:00Z',
    });
    expect(py?.language).toBe('Python');
    expect(typeof web?.id).toBe('number');
  });

  it('answers one repository, and 404 or 400 for unknown or malformed names', async () => {
    expect((await client.get('/api/github/repos/alice/web-app')).json()).toMatchObject({
      full_name: 'alice/web-app',
    });
    expect((await client.get('/api/github/repos/bob/service')).json()).toMatchObject({
      full_name: 'bob/service',
    });
    expect((await client.get('/api/github/repos/alice/nope')).statusCode).toBe(404);
    const bad = await client.get('/api/github/repos/alice/a%20b');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/Invalid repository name/);
    expect((await client.get('/api/github/repos/..%2F../web-app')).statusCode).toBe(400);
  });

  it('pages branches from refs, 100 at a time, including a name full of shell characters', async () => {
    const first = (
      await client.get('/api/github/repos/alice/web-app/branches?page=1&per_page=100')
    ).json() as Branch[];
    const second = (
      await client.get('/api/github/repos/alice/web-app/branches?page=2&per_page=100')
    ).json() as Branch[];
    const third = (
      await client.get('/api/github/repos/alice/web-app/branches?page=3&per_page=100')
    ).json() as Branch[];
    expect(first).toHaveLength(100);
    expect(second).toHaveLength(24);
    expect(third).toEqual([]);
    const names = [...first, ...second].map((branch) => branch.name);
    expect(names).toEqual(
      expect.arrayContaining(['main', 'develop', EVIL_BRANCH, EVIL_BACKTICKS, 'b-000', 'b-119']),
    );
    expect(first[0]?.commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect((await client.get('/api/github/repos/alice/web-app/branches?per_page=500')).statusCode).toBe(400);
    expect(findPwned([root, ctx.dataDir, process.cwd()])).toEqual([]);
  });

  it('reads contents from git objects: the root, a folder, a file, and another branch', async () => {
    const rootListing = (
      await client.get('/api/github/repos/alice/web-app/contents')
    ).json() as ContentEntry[];
    expect(rootListing.map((entry) => [entry.name, entry.type])).toEqual(
      expect.arrayContaining([
        ['README.md', 'file'],
        ['Dockerfile', 'file'],
        ['src', 'dir'],
      ]),
    );
    expect((await client.get('/api/github/repos/alice/web-app/contents/')).json()).toEqual(rootListing);
    const src = (await client.get('/api/github/repos/alice/web-app/contents/src')).json() as ContentEntry[];
    expect(src.map((entry) => entry.path)).toEqual(['src/index.ts', 'src/util.ts', 'src/view.tsx']);
    const file = (
      await client.get('/api/github/repos/alice/web-app/contents/src/index.ts')
    ).json() as ContentEntry;
    expect(file).toMatchObject({ type: 'file', name: 'index.ts', path: 'src/index.ts', encoding: 'base64' });
    expect(Buffer.from(file.content ?? '', 'base64').toString()).toBe('export const hello = "world";\n');

    const evil = await client.get(
      `/api/github/repos/alice/web-app/contents/evil.txt?ref=${encodeURIComponent(EVIL_BRANCH)}`,
    );
    expect(evil.statusCode).toBe(200);
    expect(Buffer.from(evil.json().content, 'base64').toString()).toBe('from the evil branch\n');
    expect((await client.get('/api/github/repos/alice/web-app/contents/evil.txt')).statusCode).toBe(404);
    expect((await client.get('/api/github/repos/alice/web-app/contents/missing.txt')).statusCode).toBe(404);
    expect((await client.get('/api/github/repos/alice/empty/contents')).statusCode).toBe(404);
    expect(findPwned([root, ctx.dataDir, process.cwd()])).toEqual([]);
  });

  it('never lets a ref become a git option', async () => {
    const output = path.join(ctx.dataDir, 'leak');
    const response = await client.get(
      `/api/github/repos/alice/web-app/contents?ref=${encodeURIComponent(`--output=${output}`)}`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("A branch name cannot start with '-'");
    expect(existsSync(output)).toBe(false);
  });

  it('refuses path traversal over a real socket (no client-side normalising) and never returns file contents', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const rawGet = (rawPath: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: rawPath, headers: { cookie } }, (response) => {
            let body = '';
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    const base = '/api/github/repos/alice/web-app/contents/';
    for (const attempt of [
      '../../etc/passwd',
      '%2e%2e/x',
      '..%2f..%2fetc%2fpasswd',
      '%252e%252e%252fetc',
      '%2Fetc%2Fpasswd',
      'src/../../../etc/passwd',
      'src%5c..%5c..%5cetc',
      'src/%00',
    ]) {
      const { status, body } = await rawGet(base + attempt);
      expect(status, attempt).toBe(400);
      expect(body).not.toContain('root:');
      expect(JSON.parse(body).error).toMatch(/path/i);
    }
    // Through inject, which normalises dot segments itself, the path never reaches the contents route.
    const injected = await client.get(`${base}../../../../etc/passwd`);
    expect(injected.statusCode).toBe(404);
    expect(injected.body).not.toContain('root:');
  });

  it('resolves the clone source to the repository directory, checked to exist', async () => {
    const operator = (await ctx.platform.users.findByLogin('operator'))!;
    expect(await ctx.platform.repositories.cloneSource(operator, 'alice', 'web-app')).toEqual({
      url: webApp(),
    });
    expect(await ctx.platform.repositories.cloneSource(operator, 'bob', 'service')).toEqual({
      url: path.join(root, 'bob', 'service.git'),
    });
    await expect(ctx.platform.repositories.cloneSource(operator, 'alice', 'nope')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(ctx.platform.repositories.cloneSource(operator, '..', 'web-app')).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('keeps repositories for whitelisted users; installations are open to the waiting list and empty locally', async () => {
    const waiting = await new TestClient(ctx.app).signIn('waiting');
    expect((await waiting.get('/api/github/repos')).statusCode).toBe(403);
    const installations = await waiting.get('/api/github/installations');
    expect(installations.statusCode).toBe(200);
    expect(installations.json()).toEqual([]);
    expect((await new TestClient(ctx.app).get('/api/github/repos')).statusCode).toBe(401);
  });

  it('serves the VM size catalogue', async () => {
    const response = await client.get('/api/vm-sizes');
    expect(response.json()).toEqual(VM_SIZES);
    expect(response.json()[0]).toMatchObject({ id: 'Standard_B2ats_v2', price: 12, planCode: 'BASIC_1GB' });
  });
});
