import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEPLOYMENT_STEPS,
  deployJobMetadataSchema,
  serviceStateSchema,
  TOKEN_SCOPES,
} from '@slipway/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { loopback } from '../../../apps/server/src/test/deployments.js';
import { useEngineWorld } from '../../../apps/server/src/test/engineWorld.js';
import { describeWith } from '../../../apps/server/src/test/services.js';
import { EXIT } from './cliErrors.js';
import { cleanEnv, errorDocumentOf, expectFailure, runCli, startCli } from './cliProcess.test-helper.js';

/** The documented --json shapes (README, "API, tokens and the CLI"), strict: a field more is a change too. */
const urls = z.record(z.string(), z.string());
const loginShape = z.strictObject({ url: z.string(), login: z.string(), config_file: z.string() });
const whoamiShape = z.strictObject({
  url: z.string(),
  user: z.strictObject({
    id: z.string(),
    login: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
  }),
});
const workspaceLine = z.strictObject({
  name: z.string(),
  repository: z.string(),
  branch: z.string(),
  status: z.string(),
  urls,
  created_at: z.string(),
});
const workspacesShape = z.strictObject({ workspaces: z.array(workspaceLine) });
const statusShape = z.strictObject({
  workspace: workspaceLine.extend({
    services: z.array(serviceStateSchema),
    latest_deployment: z
      .strictObject({
        id: z.string(),
        status: z.string(),
        commit_sha: z.string().nullable(),
        trigger: z.string(),
        created_at: z.string(),
      })
      .nullable(),
    last_error: z.string().nullable(),
  }),
});
const deploymentShape = z.strictObject({
  workspace: z.string(),
  session_id: z.string(),
  deployment_id: z.string(),
  state: z.enum(['completed', 'failed']),
  error: z.string().nullable(),
  urls,
  failure: deployJobMetadataSchema.nullable(),
  build_log: z.array(z.string()),
});
const rollbackShape = deploymentShape.extend({ rollback_of: z.string() });
const logLine = z.strictObject({
  timestamp: z.string(),
  service: z.string(),
  source: z.string(),
  message: z.string(),
});
const logsShape = z.strictObject({ lines: z.array(logLine) });
const envListShape = z.strictObject({
  workspace: z.string(),
  variables: z.array(z.strictObject({ key: z.string(), value: z.string() })),
});
const envSavedShape = z.strictObject({
  workspace: z.string(),
  count: z.number(),
  added: z.number(),
  updated: z.number(),
});
const envUnsetShape = z.strictObject({
  workspace: z.string(),
  deleted: z.number(),
  removed: z.array(z.string()),
});
const logoutShape = z.strictObject({
  config_file: z.string(),
  removed: z.boolean(),
  url: z.string().nullable(),
});
const deleteShape = z.strictObject({ workspace: z.string(), deleted: z.literal(true), message: z.string() });

/** A one-service app whose web service says which version it serves, in its log and on its page. */
const helloVersion = (page: string) => ({
  'compose.yaml': `services:
  web:
    build: .
    command: ["sh", "-c", "echo serving ${page}; exec httpd -f -p 8080 -h /www"]
    ports: ["8080"]
`,
  Dockerfile: `FROM busybox:1.36\nRUN mkdir -p /www && echo '${page}' > /www/index.html\n`,
});

/** A web service that dies as it starts, saying why on stderr. */
const BROKEN = {
  'compose.yaml': `services:
  web:
    image: busybox:1.36
    command: ["sh", "-c", "echo cannot reach the database >&2; exit 3"]
    ports: ["8080"]
`,
};

/** A Dockerfile whose build fails, saying why, as a real one does (a missing file, exit 3). */
const BROKEN_BUILD = {
  'compose.yaml': `services:
  web:
    build: .
    ports: ["8080"]
`,
  Dockerfile:
    'FROM busybox:1.36\nRUN echo "compiling assets" && echo "error: assets/app.css: no such file" >&2 && exit 3\n',
};

describeWith('docker')('the slipway CLI against a running Slipway', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '10' });
  let url: string;
  let token: string;
  let configHome: string;
  let firstDeploymentId: string;
  let webUrl: string;

  /** The environment a CI job would give it: the server and a token, a config directory of its own. */
  const baseEnv = (extra: Record<string, string> = {}) => cleanEnv({ XDG_CONFIG_HOME: configHome, ...extra });
  const ciEnv = () => baseEnv({ SLIPWAY_URL: url, SLIPWAY_TOKEN: token });
  const cli = (args: string[], env: Record<string, string> = ciEnv()) => runCli(args, env);
  /** A token of these scopes only. */
  const tokenOf = async (scopes: string[]) => {
    const created = await engine.client.post('/api/api-tokens', {
      name: scopes.join(' '),
      scopes,
      expires_in_days: 1,
    });
    expect(created.statusCode).toBe(201);
    return (created.json() as { token: string }).token;
  };

  /** Runs a --json command that must succeed and parses its whole stdout with `shape`. */
  async function json<T>(args: string[], shape: z.ZodType<T>): Promise<T> {
    const run = await cli([...args, '--json']);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    return shape.parse(JSON.parse(run.stdout));
  }

  beforeAll(async () => {
    await engine.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(engine.ctx.app.server.address() as AddressInfo).port}`;
    const created = await engine.client.post('/api/api-tokens', {
      name: 'cli tests',
      scopes: ['write', 'secrets:read'],
      expires_in_days: null,
    });
    expect(created.statusCode).toBe(201);
    token = (created.json() as { token: string }).token;
    configHome = mkdtempSync(path.join(tmpdir(), 'slipway-cli-config-'));
    // The log collector: `logs` reads what it stores.
    await engine.ctx.platform.runningApps.start();
  });

  afterAll(() => {
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('login checks the token with GET /api/user and keeps it (0600); whoami uses the kept login', async () => {
    const wrong = await cli(['login', '--url', url, '--token', `slw_${'0'.repeat(40)}`], baseEnv());
    expectFailure(wrong, EXIT.refused, /\S/);
    expect(wrong.stdout).toBe('');

    const run = await cli(['login', '--url', url, '--token', token, '--json'], baseEnv());
    expect(run.code, run.stderr).toBe(0);
    const result = loginShape.parse(JSON.parse(run.stdout));
    expect(result).toEqual({
      url,
      login: 'operator',
      config_file: path.join(configHome, 'slipway', 'config.json'),
    });
    expect(statSync(result.config_file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(result.config_file, 'utf8'))).toEqual({ url, token });

    const who = await cli(['whoami', '--json'], baseEnv());
    expect(who.code, who.stderr).toBe(0);
    expect(whoamiShape.parse(JSON.parse(who.stdout)).user.login).toBe('operator');
    expect((await cli(['whoami'], baseEnv())).stdout).toMatch(new RegExp(`^operator .*on ${url}\n$`));
  });

  it('logout forgets the kept login and says so; whoami is then refused (exit 3)', async () => {
    const file = path.join(configHome, 'slipway', 'config.json');
    expect(existsSync(file)).toBe(true);
    const out = await cli(['logout'], baseEnv());
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(
      `Signed out of ${url}: removed ${file}\nThe token itself works until it is revoked (Account Settings → API Tokens).\n`,
    );
    expect(existsSync(file)).toBe(false);
    const who = await cli(['whoami', '--json'], baseEnv());
    expectFailure(
      who,
      EXIT.refused,
      'Not signed in to http://localhost:3000: run `slipway login` or set SLIPWAY_TOKEN',
    );
    expect(errorDocumentOf(who).exitCode).toBe(EXIT.refused);
    // Signed in again, then out with --json.
    expect((await cli(['login', '--url', url, '--token', token], baseEnv())).code).toBe(0);
    const json = await cli(['logout', '--json'], baseEnv());
    expect(logoutShape.parse(JSON.parse(json.stdout))).toEqual({ config_file: file, removed: true, url });
  });

  it('deploys a repository and follows it to the end: exit 0, plain step lines off a terminal', async () => {
    engine.world.repo('hello', helloVersion('version one'));
    const run = await cli(['deploy', 'operator/hello', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = deploymentShape.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({ workspace: 'hello', state: 'completed', error: null, failure: null });
    for (const step of DEPLOYMENT_STEPS) expect(run.stderr).toContain(`${step.name}: done`);
    expect(run.stderr).not.toContain('\r');
    firstDeploymentId = result.deployment_id;
    webUrl = loopback(result.urls.web!);
    expect(await (await fetch(webUrl)).text()).toBe('version one\n');

    const list = await json(['workspaces'], workspacesShape);
    expect(list.workspaces).toEqual([
      expect.objectContaining({
        name: 'hello',
        repository: 'operator/hello',
        branch: 'main',
        status: 'live',
      }),
    ]);
    const status = await json(['status', 'hello'], statusShape);
    expect(status.workspace.services.map((s) => [s.service, s.state])).toEqual([['web', 'running']]);
    expect(status.workspace.latest_deployment?.id).toBe(firstDeploymentId);
  });

  it('prints the service logs, and follows them until interrupted (exit 0)', async () => {
    const deadline = Date.now() + 60_000;
    let history = await json(['logs', 'hello'], logsShape);
    while (!history.lines.some((l) => l.message.includes('serving version one')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      history = await json(['logs', 'hello', '--service', 'web'], logsShape);
    }
    expect(history.lines).toContainEqual(
      expect.objectContaining({ service: 'web', message: 'serving version one' }),
    );

    const follower = startCli(['logs', 'hello', '--follow', '--json'], ciEnv());
    let out = '';
    follower.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => follower.on('close', resolve));
    while (!out.includes('serving version one')) {
      if (Date.now() > deadline) throw new Error(`no line followed: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Still following: the stream stays open for new lines.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(follower.exitCode).toBeNull();
    follower.kill('SIGINT');
    expect(await closed).toBe(0);
    for (const line of out.trim().split('\n')) logLine.parse(JSON.parse(line));
  });

  it('sets, lists, imports and unsets variables', async () => {
    expect(
      await json(['env', 'set', 'hello', 'GREETING=hi there', 'URL=postgres://u:p@db/x?a=b'], envSavedShape),
    ).toEqual({ workspace: 'hello', count: 2, added: 2, updated: 0 });
    const file = path.join(configHome, 'prod.env');
    writeFileSync(file, '# production\nGREETING="hello\\nworld"\nexport DEBUG=0\n');
    expect(await json(['env', 'import', 'hello', file], envSavedShape)).toEqual({
      workspace: 'hello',
      count: 3,
      added: 1,
      updated: 1,
    });
    const listed = await json(['env', 'list', 'hello'], envListShape);
    expect(listed.variables).toEqual(
      expect.arrayContaining([
        { key: 'GREETING', value: 'hello\nworld' },
        { key: 'URL', value: 'postgres://u:p@db/x?a=b' },
        { key: 'DEBUG', value: '0' },
      ]),
    );
    expect((await cli(['env', 'list', 'hello'])).stdout).toContain("GREETING='hello\nworld'");

    // All or nothing: a missing key refuses the whole command before anything is removed.
    const keys = async () => (await json(['env', 'list', 'hello'], envListShape)).variables.map((v) => v.key);
    const partly = await cli(['env', 'unset', 'hello', 'DEBUG', 'MISSING', 'URL', 'NOPE']);
    expectFailure(partly, EXIT.refused, 'hello has no variables MISSING, NOPE: nothing was removed');
    expect(partly.stdout).toBe('');
    expect((await keys()).sort()).toEqual(['DEBUG', 'GREETING', 'URL']);

    // A token without secrets:read checks the names through the list that never holds a value.
    const writeOnly = await tokenOf(['write']);
    const unset = await cli(
      ['env', 'unset', 'hello', 'DEBUG', 'URL'],
      baseEnv({ SLIPWAY_URL: url, SLIPWAY_TOKEN: writeOnly }),
    );
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.stdout).toBe('hello: 2 variables removed: DEBUG, URL (a redeploy applies it)\n');
    expect(await keys()).toEqual(['GREETING']);
    expect(await json(['env', 'set', 'hello', 'DEBUG=1'], envSavedShape)).toMatchObject({ added: 1 });
    expect(await json(['env', 'unset', 'hello', 'DEBUG'], envUnsetShape)).toEqual({
      workspace: 'hello',
      deleted: 1,
      removed: ['DEBUG'],
    });
    expect(await keys()).toEqual(['GREETING']);
  });

  it('redeploys, then rolls back to the previous revision by default', async () => {
    engine.world.repo('hello', helloVersion('version two'));
    const two = await json(['deploy', 'operator/hello', '--redeploy'], deploymentShape);
    expect(two.state).toBe('completed');
    expect(await (await fetch(webUrl)).text()).toBe('version two\n');

    const back = await json(['rollback', 'hello'], rollbackShape);
    expect(back).toMatchObject({ workspace: 'hello', state: 'completed', rollback_of: firstDeploymentId });
    expect(await (await fetch(webUrl)).text()).toBe('version one\n');
  });

  it('a failing deployment exits 1 with the failure report: reason, service state, its last lines', async () => {
    engine.world.repo('broken', BROKEN);
    const run = await cli(['deploy', 'operator/broken']);
    expect(run.code).toBe(EXIT.failed);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Deployment \S+ of broken failed: /);
    expect(run.stderr).toMatch(/ {2}web: (restarting|exited \(exit code 3\)) — /);
    expect(run.stderr).toContain('cannot reach the database');

    // With --json the report still goes to stderr: the CI log says why the job failed.
    const again = await cli(['deploy', 'operator/broken', '--redeploy', '--json']);
    expect(again.code).toBe(EXIT.failed);
    const result = deploymentShape.parse(JSON.parse(again.stdout));
    expect(result.state).toBe('failed');
    expect(result.failure?.failed_services).toContain('web');
    expect(again.stderr).toContain('cannot reach the database');

    // Its first deployment failed: the workspace is failed, and status says so with exit 1.
    const status = await cli(['status', 'broken']);
    expect(status.code, status.stderr).toBe(EXIT.failed);
    expect(status.stdout).toMatch(/^broken: failed {2}\(operator\/broken@main\)\n/);
    expect(status.stdout).toContain('Last error: ');
    expect(
      statusShape.parse(JSON.parse((await cli(['status', 'broken', '--json'])).stdout)).workspace.status,
    ).toBe('failed');
    const all = await cli(['status']);
    expect(all.code).toBe(EXIT.failed);
    expect((await cli(['status', 'hello'])).code).toBe(EXIT.ok);
  });

  it('a failed build prints what the build printed: the build log’s last lines', async () => {
    engine.world.repo('badbuild', BROKEN_BUILD);
    const run = await cli(['deploy', 'operator/badbuild']);
    expect(run.code, run.stderr).toBe(EXIT.failed);
    expect(run.stderr).toMatch(/Deployment \S+ of badbuild failed: The build step failed for service 'web'/);
    const report = run.stderr.slice(run.stderr.indexOf('--- last lines of the build log ---'));
    expect(report).toContain('web | compiling assets');
    expect(report).toContain('error: assets/app.css: no such file');
    expect(report).toContain('returned a non-zero code: 3');
    // Docker colours a build's stderr; the report is plain text.
    expect(report).not.toContain('\x1b');

    const json = await cli(['deploy', 'operator/badbuild', '--redeploy', '--json']);
    expect(json.code).toBe(EXIT.failed);
    const result = deploymentShape.parse(JSON.parse(json.stdout));
    expect(result.build_log).toContainEqual(expect.stringContaining('error: assets/app.css: no such file'));
    expect(result.build_log.length).toBeLessThanOrEqual(20);
    expect(json.stderr).toContain('error: assets/app.css: no such file');
  });

  it('says what went wrong in a sentence: refused (3), unreachable (4), a usage error (2)', async () => {
    const readOnly = await tokenOf(['read']);
    const readerEnv = baseEnv({ SLIPWAY_URL: url, SLIPWAY_TOKEN: readOnly });
    const refused = await cli(['deploy', 'operator/hello'], readerEnv);
    expect(refused).toMatchObject({ code: 3, stdout: '', stderr: 'This API token lacks the deploy scope\n' });
    expect(TOKEN_SCOPES).toContain('deploy');
    const refusedJson = await cli(['deploy', 'operator/hello', '--json'], readerEnv);
    expect(errorDocumentOf(refusedJson)).toEqual({
      error: 'This API token lacks the deploy scope',
      exitCode: EXIT.refused,
      code: 'insufficient_scope',
      status: 403,
    });
    const missing = await cli(['status', 'no-such-workspace', '--json']);
    expectFailure(missing, EXIT.refused, /not found/i);
    expect(errorDocumentOf(missing)).toMatchObject({ status: 404 });

    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const unreachable = await cli(
      ['workspaces'],
      baseEnv({ SLIPWAY_URL: `http://127.0.0.1:${closedPort}`, SLIPWAY_TOKEN: token }),
    );
    expect(unreachable).toMatchObject({
      code: EXIT.unreachable,
      stderr: `Cannot reach Slipway at http://127.0.0.1:${closedPort}: connection refused\n`,
    });

    const usage = await cli(['delete', 'hello']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('Pass --yes to delete a workspace when stdin is not a terminal\n');
  });

  it('deletes the workspaces', async () => {
    for (const name of ['hello', 'broken', 'badbuild']) {
      expect(await json(['delete', name, '--yes'], deleteShape)).toMatchObject({
        workspace: name,
        deleted: true,
      });
    }
    expect(await json(['workspaces'], workspacesShape)).toEqual({ workspaces: [] });
    const gone = await cli(['status', 'hello']);
    expectFailure(gone, EXIT.refused, /not found/i);
  });
});
