import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

const BIN = fileURLToPath(new URL('../bin/slipway.js', import.meta.url));

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
const envUnsetShape = z.strictObject({ workspace: z.string(), deleted: z.number() });
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

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describeWith('docker')('the slipway CLI against a running Slipway', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '10' });
  let url: string;
  let token: string;
  let configHome: string;
  let firstDeploymentId: string;
  let webUrl: string;

  /** The environment a CI job would give it: the server and a token, a config directory of its own. */
  const baseEnv = (extra: Record<string, string> = {}) => {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      XDG_CONFIG_HOME: configHome,
    };
    delete env.SLIPWAY_URL;
    delete env.SLIPWAY_TOKEN;
    return { ...env, ...extra };
  };
  const ciEnv = () => baseEnv({ SLIPWAY_URL: url, SLIPWAY_TOKEN: token });

  function start(args: string[], env: Record<string, string>) {
    return spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  function cli(args: string[], env: Record<string, string> = ciEnv()): Promise<CliRun> {
    const child = start(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

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
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).not.toBe('');
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

    const follower = start(['logs', 'hello', '--follow', '--json'], ciEnv());
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
    expect(await json(['env', 'unset', 'hello', 'DEBUG', 'URL'], envUnsetShape)).toEqual({
      workspace: 'hello',
      deleted: 2,
    });
    expect((await json(['env', 'list', 'hello'], envListShape)).variables.map((v) => v.key)).toEqual([
      'GREETING',
    ]);
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
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Deployment \S+ of broken failed: /);
    expect(run.stderr).toMatch(/ {2}web: (restarting|exited \(exit code 3\)) — /);
    expect(run.stderr).toContain('cannot reach the database');

    const again = await cli(['deploy', 'operator/broken', '--redeploy', '--json']);
    expect(again.code).toBe(1);
    const result = deploymentShape.parse(JSON.parse(again.stdout));
    expect(result.state).toBe('failed');
    expect(result.failure?.failed_services).toContain('web');
  });

  it('says what went wrong in a sentence: a missing scope, an unreachable server, a usage error (exit 2)', async () => {
    const created = await engine.client.post('/api/api-tokens', {
      name: 'read only',
      scopes: ['read'],
      expires_in_days: 1,
    });
    const readOnly = (created.json() as { token: string }).token;
    const refused = await cli(
      ['deploy', 'operator/hello'],
      baseEnv({ SLIPWAY_URL: url, SLIPWAY_TOKEN: readOnly }),
    );
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: 'This API token lacks the deploy scope\n' });
    expect(TOKEN_SCOPES).toContain('deploy');

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
      code: 1,
      stderr: `Cannot reach Slipway at http://127.0.0.1:${closedPort}: connection refused\n`,
    });

    const usage = await cli(['delete', 'hello']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('Pass --yes to delete a workspace when stdin is not a terminal\n');
  });

  it('deletes the workspaces', async () => {
    for (const name of ['hello', 'broken']) {
      expect(await json(['delete', name, '--yes'], deleteShape)).toMatchObject({
        workspace: name,
        deleted: true,
      });
    }
    expect(await json(['workspaces'], workspacesShape)).toEqual({ workspaces: [] });
    const gone = await cli(['status', 'hello']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).not.toBe('');
  });
});
