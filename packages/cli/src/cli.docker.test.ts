import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEPLOYMENT_STEPS } from '@slipway/contract';
import { beforeAll, expect, it } from 'vitest';
import { loopback } from '../../../apps/server/src/test/deployments.js';
import { describeWith } from '../../../apps/server/src/test/services.js';
import { EXIT } from './cliErrors.js';
import { errorDocumentOf, expectFailure, startCli } from './cliProcess.test-helper.js';
import {
  deleteShape,
  deploymentShape,
  envListShape,
  envSavedShape,
  envUnsetShape,
  loginShape,
  logLine,
  logoutShape,
  logsShape,
  rollbackShape,
  statusShape,
  whoamiShape,
  workspacesShape,
} from './cliShapes.test-helper.js';
import { useSlipwayForCli } from './slipwayUnderTest.test-helper.js';

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

describeWith('docker')('the slipway CLI against a running Slipway', () => {
  const slipway = useSlipwayForCli(['write', 'secrets:read']);
  const { engine, cli, json, baseEnv, ciEnv, tokenOf } = slipway;
  let url: string;
  let token: string;
  let configHome: string;
  let firstDeploymentId: string;
  let webUrl: string;

  beforeAll(async () => {
    ({ url, token, configHome } = slipway);
    // The log collector: `logs` reads what it stores.
    await engine.ctx.platform.runningApps.start();
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

  it('deletes the workspaces', async () => {
    for (const name of ['hello']) {
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
