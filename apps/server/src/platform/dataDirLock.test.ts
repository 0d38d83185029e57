import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/fixtures/freePort.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The real server as `npm start` runs it: `tsx src/main.ts` with apps/server as the working directory. */
async function spawnServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => log, exited };
}

/** Waits for GET /api/health to answer (or for the process to exit, which fails the wait). */
async function healthy(server: Server, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline && !exited) {
    const ok = await fetch(`${server.url}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server not healthy:\n${server.output()}`);
}

async function stop(server: Server, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

/** A browser's cookie jar over fetch: local sign-in, then the anti-forgery header on writes. */
class Browser {
  cookies = new Map<string, string>();
  async call(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf) headers.set('x-xsrf-token', decodeURIComponent(xsrf));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }
}

describe('one process per DATA_DIR', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-lock-'));
  const started: Server[] = [];
  afterAll(async () => {
    for (const server of started) await stop(server, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second server at once, naming the holder; the first keeps serving and its data survives', async () => {
    const first = await spawnServer(dataDir);
    started.push(first);
    await healthy(first);
    const browser = new Browser();
    expect((await browser.call(`${first.url}/api/auth/github/install`)).status).toBe(302);
    expect((await browser.call(`${first.url}/api/user`)).status).toBe(200);
    const saved = await browser.call(`${first.url}/api/session/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 'lock-test-session', stateData: { step: 3 } }),
    });
    expect(saved.status).toBe(200);
    const secretsBefore = readFileSync(path.join(dataDir, 'secrets.json'), 'utf8');

    const second = await spawnServer(dataDir);
    started.push(second);
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toContain(
      `Another Slipway process (pid ${first.child.pid}) is already using the data directory`,
    );
    // It touched nothing: no line of its own in the data directory's log, the secrets as they were.
    const logs = readdirSync(path.join(dataDir, 'logs'))
      .map((name) => readFileSync(path.join(dataDir, 'logs', name), 'utf8'))
      .join('');
    expect(logs).toContain(`"pid":${first.child.pid}`);
    expect(logs).not.toContain(`"pid":${second.child.pid}`);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toBe(secretsBefore);

    expect((await browser.call(`${first.url}/api/health`)).status).toBe(200);
    expect((await browser.call(`${first.url}/api/auth/github/install`)).status).toBe(302);
    expect((await browser.call(`${first.url}/api/user`)).status).toBe(200);
    expect(await (await browser.call(`${first.url}/api/session/state/lock-test-session`)).json()).toEqual({
      exists: true,
      stateData: { step: 3 },
    });
    await browser.call(`${first.url}/api/session/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 'lock-test-session', stateData: { step: 4 } }),
    });
    await stop(first);
    expect(first.child.exitCode).toBe(0);

    // Restarted on the same directory: the database opens and holds what the first process wrote.
    const third = await spawnServer(dataDir);
    started.push(third);
    await healthy(third);
    expect((await browser.call(`${third.url}/api/user`)).status).toBe(200);
    expect(await (await browser.call(`${third.url}/api/session/state/lock-test-session`)).json()).toEqual({
      exists: true,
      stateData: { step: 4 },
    });

    // A process killed outright leaves no lock behind: the next one starts at once.
    await stop(third, 'SIGKILL');
    const fourth = await spawnServer(dataDir);
    started.push(fourth);
    await healthy(fourth);
    expect((await browser.call(`${fourth.url}/api/user`)).status).toBe(200);
    await stop(fourth);
  }, 180_000);
});
