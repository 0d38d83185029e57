import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/src/test/fixtures/freePort.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

export { freePort };

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `Slipway server exited with code ${child.exitCode} before it was healthy:\n${output()}`,
      );
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Slipway server was not healthy after ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts the real server (`npx tsx apps/server/src/main.ts`) on a free port with a fresh data
 * directory (embedded PGlite, local sign-in), and waits for GET /api/health.
 */
export async function startServer(
  overrides: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'slipway-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  // Node itself (not an npx wrapper), so the process we wait for is the one that closes the database.
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: url,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ...overrides,
    },
    // Its own process group, so stopping it also stops anything the server started.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const output = () => log;

  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => {
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };

  try {
    await waitForHealth(url, child, output, timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, dataDir, output, stop };
}
