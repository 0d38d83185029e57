import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../apps/server/src/test/fixtures/freePort.js';
import { EXIT } from './cliErrors.js';
import { type CliRun, cleanEnv, errorDocumentOf, expectFailure, runCli } from './cliProcess.test-helper.js';
import { useScratchDirs } from './scratchDirs.test-helper.js';

const TOKEN = `slw_${'a'.repeat(40)}`;

/** Runs at most `width` CLI processes at a time (each is a Node start-up: the machine has two cores). */
async function inBatches<T, R>(
  items: readonly T[],
  width: number,
  act: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(act))));
  }
  return results;
}

/**
 * Issue 39, item 8, where no Slipway is needed: a wrong address, a damaged login, an unreachable or silent server,
 * a proxy with nothing behind it, a wrong command line — each ends in a sentence and its own exit status, never
 * in a stack trace, and with --json in one JSON document on stdout.
 */
describe('the slipway CLI at its edges (no server)', () => {
  const scratch = useScratchDirs();
  const configIn = (home: string) => path.join(home, 'slipway', 'config.json');
  const damagedHome = () => {
    const home = scratch();
    mkdirSync(path.join(home, 'slipway'));
    writeFileSync(configIn(home), '{"url": "http://slipway.example", "tok');
    return home;
  };
  let closedPort: number;
  let silent: Server;
  let silentPort: number;
  const held: Socket[] = [];

  beforeAll(async () => {
    closedPort = await freePort();
    silentPort = await freePort();
    // Accepts connections and never answers: a server that hangs.
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('says a wrong server address in a sentence, exit 2, with --json as a document too', async () => {
    const home = scratch();
    const env = cleanEnv({ XDG_CONFIG_HOME: home, SLIPWAY_TOKEN: TOKEN });
    const run = await runCli(['whoami', '--url', 'notaurl'], env);
    expectFailure(run, EXIT.usage, '--url "notaurl" is not a Slipway server address (it is not a URL)');
    expect(run.stdout).toBe('');
    const json = await runCli(['whoami', '--url', 'notaurl', '--json'], env);
    expect(errorDocumentOf(json)).toEqual({
      error:
        '--url "notaurl" is not a Slipway server address (it is not a URL): give one like https://slipway.example.com',
      exitCode: EXIT.usage,
    });
    const fromEnv = await runCli(
      ['workspaces'],
      cleanEnv({ XDG_CONFIG_HOME: home, SLIPWAY_URL: 'slipway.example' }),
    );
    expectFailure(fromEnv, EXIT.usage, 'SLIPWAY_URL "slipway.example" is not a Slipway server address');
  });

  it('names a damaged login file and what to do; logout removes it and says so; login is not stopped by it', async () => {
    const home = damagedHome();
    const env = cleanEnv({ XDG_CONFIG_HOME: home });
    const run = await runCli(['workspaces'], env);
    expectFailure(
      run,
      EXIT.usage,
      `Cannot use the login kept in ${configIn(home)} (it is not JSON): run \`slipway logout\` to remove it, then \`slipway login\` again`,
    );
    expect(errorDocumentOf(await runCli(['status', '--json'], env)).exitCode).toBe(EXIT.usage);

    // login replaces it (here against a server that is not there: it gets as far as asking it).
    const login = await runCli(['login', '--url', `http://127.0.0.1:${closedPort}`, '--token', TOKEN], env);
    expectFailure(
      login,
      EXIT.unreachable,
      `Cannot reach Slipway at http://127.0.0.1:${closedPort}: connection refused`,
    );

    const out = await runCli(['logout'], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(`Removed ${configIn(home)}, which held no usable login\n`);
    expect(existsSync(configIn(home))).toBe(false);
    const again = await runCli(['logout', '--json'], env);
    expect(JSON.parse(again.stdout)).toEqual({ config_file: configIn(home), removed: false, url: null });

    // A CI job with the server and the token in its environment does not need the file.
    const ci = await runCli(
      ['workspaces'],
      cleanEnv({
        XDG_CONFIG_HOME: damagedHome(),
        SLIPWAY_URL: `http://127.0.0.1:${closedPort}`,
        SLIPWAY_TOKEN: TOKEN,
      }),
    );
    expectFailure(ci, EXIT.unreachable, 'Cannot reach Slipway');
  });

  it('a server that cannot be reached or does not answer is exit 4', async () => {
    const home = scratch();
    const refused = await runCli(
      ['workspaces', '--json'],
      cleanEnv({
        XDG_CONFIG_HOME: home,
        SLIPWAY_URL: `http://127.0.0.1:${closedPort}`,
        SLIPWAY_TOKEN: TOKEN,
      }),
    );
    expectFailure(
      refused,
      EXIT.unreachable,
      `Cannot reach Slipway at http://127.0.0.1:${closedPort}: connection refused`,
    );
    expect(errorDocumentOf(refused).exitCode).toBe(EXIT.unreachable);

    const started = Date.now();
    const hung = await runCli(
      ['status', 'shop'],
      cleanEnv({
        XDG_CONFIG_HOME: home,
        SLIPWAY_URL: `http://127.0.0.1:${silentPort}`,
        SLIPWAY_TOKEN: TOKEN,
        SLIPWAY_TIMEOUT: '1',
      }),
    );
    expectFailure(
      hung,
      EXIT.unreachable,
      `Slipway at http://127.0.0.1:${silentPort} did not answer within 1 s (SLIPWAY_TIMEOUT)`,
    );
    // Well before the default 60 s (a Node start under load takes seconds of its own).
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('a hostile set of command lines: each a sentence and its exit status, never a stack trace', async () => {
    const home = scratch();
    const env = cleanEnv({
      XDG_CONFIG_HOME: home,
      SLIPWAY_URL: `http://127.0.0.1:${closedPort}`,
      SLIPWAY_TOKEN: TOKEN,
    });
    const cases: [string[], number, string][] = [
      [[], EXIT.usage, 'A command is missing'],
      [['env'], EXIT.usage, 'A command is missing'],
      [['backups'], EXIT.usage, 'A command is missing'],
      [['bogus'], EXIT.usage, "unknown command 'bogus'"],
      [['deploy'], EXIT.usage, "missing required argument 'owner/repo'"],
      [['deploy', '--upload-pack=x/y'], EXIT.usage, "unknown option '--upload-pack=x/y'"],
      [['deploy', '$(id)/x'], EXIT.usage, '"$(id)/x" is not OWNER/REPO'],
      [['status', '../../etc'], EXIT.usage, 'Invalid workspace name'],
      [['logs', 'x'.repeat(5000)], EXIT.usage, 'Invalid workspace name'],
      [['env', 'set', 'shop', 'A\u00e9=1'], EXIT.usage, 'Invalid variable name'],
      [['env', 'unset', 'shop', ''], EXIT.usage, 'A variable name is empty'],
      [['env', 'import', 'shop', path.join(home, 'missing.env')], EXIT.usage, 'no such file'],
      [['env', 'import', 'shop', home], EXIT.usage, `Cannot read ${home}`],
      [['delete', 'shop'], EXIT.usage, 'Pass --yes to delete a workspace when stdin is not a terminal'],
      [['backups', 'restore', 'shop', 'zz'], EXIT.usage, '"zz" is not a backup id'],
      [['login', '--token', 'hunter2'], EXIT.usage, 'That is not a Slipway API token'],
      [['login'], EXIT.usage, 'Pass --token (stdin is not a terminal to ask on)'],
      [['logs', 'shop', '-n', '1e9'], EXIT.usage, 'give a whole number of lines from 1 to 5000'],
      [['--url', 'http://user:pw@host', 'whoami'], EXIT.usage, 'it holds a user name or password'],
      [['--url', 'javascript:alert(1)', 'whoami'], EXIT.usage, 'it is not an http:// or https:// URL'],
      [['status'], EXIT.unreachable, 'Cannot reach Slipway'],
      [['backups', 'list', 'shop'], EXIT.unreachable, 'Cannot reach Slipway'],
    ];
    const runs = await inBatches(cases, 3, async ([args, code, sentence]) => {
      const text = await runCli(args, env);
      const json = await runCli([...args, '--json'], env);
      return { args, code, sentence, text, json };
    });
    for (const { args, code, sentence, text, json } of runs) {
      const what = `slipway ${args.join(' ').slice(0, 80)}`;
      expectFailure(text, code, sentence, what);
      expectFailure(json, code, sentence, `${what} --json`);
      expect(errorDocumentOf(json).error, what).toContain(sentence);
    }
    const timeout = await runCli(['workspaces'], { ...env, SLIPWAY_TIMEOUT: 'forever' });
    expectFailure(timeout, EXIT.usage, 'SLIPWAY_TIMEOUT "forever" is not a number of seconds from 1 to 3600');
  });

  const caddy = spawnSync('caddy', ['version']).status === 0;
  it.skipIf(!caddy && process.env.CI !== 'true')(
    'a proxy in front of a Slipway that is down (a real Caddy answering 502) is exit 4, in a sentence',
    async () => {
      const dir = scratch();
      const port = await freePort();
      const config = {
        admin: { disabled: true },
        apps: {
          http: {
            servers: {
              front: {
                listen: [`127.0.0.1:${port}`],
                automatic_https: { disable: true },
                routes: [
                  {
                    handle: [{ handler: 'reverse_proxy', upstreams: [{ dial: `127.0.0.1:${closedPort}` }] }],
                  },
                ],
              },
            },
          },
        },
      };
      writeFileSync(path.join(dir, 'caddy.json'), JSON.stringify(config));
      const proxy: ChildProcess = spawn('caddy', ['run', '--config', path.join(dir, 'caddy.json')], {
        env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
        stdio: 'ignore',
      });
      try {
        const url = `http://127.0.0.1:${port}`;
        for (let i = 0; ; i++) {
          const up = await fetch(url).then(
            () => true,
            () => false,
          );
          if (up) break;
          if (i > 100) throw new Error('caddy did not start');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const env = cleanEnv({ XDG_CONFIG_HOME: dir, SLIPWAY_URL: url, SLIPWAY_TOKEN: TOKEN });
        const run: CliRun = await runCli(['workspaces', '--json'], env);
        expectFailure(
          run,
          EXIT.unreachable,
          `Slipway at ${url} could not answer GET /api/user-workspaces (502 Bad Gateway)`,
        );
        expect(errorDocumentOf(run)).toMatchObject({ exitCode: EXIT.unreachable, status: 502 });
      } finally {
        if (proxy.pid !== undefined && proxy.exitCode === null) {
          const exited = new Promise((resolve) => proxy.once('exit', resolve));
          process.kill(proxy.pid, 'SIGTERM');
          await exited;
        }
      }
    },
  );
});
