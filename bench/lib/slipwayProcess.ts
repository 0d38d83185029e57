import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../apps/server/src/test/fixtures/freePort.js';

export { freePort };

/** Resident set size of a process from /proc, in bytes (0 once it is gone). */
export function rssOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The pids of a process and all its descendants, read from /proc/<pid>/stat's parent field. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses; the parent pid follows its last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we read
    }
  }
  const tree: number[] = [];
  for (const queue = [root]; queue.length > 0; ) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** The summed RSS of a process and its descendants, and each of them, named. */
export function treeRss(root: number): {
  total: number;
  processes: { pid: number; name: string; rss: number }[];
} {
  const processes = processTree(root).map((pid) => {
    let name = '?';
    try {
      name = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 3).join(' ');
    } catch {
      // gone
    }
    return { pid, name, rss: rssOf(pid) };
  });
  return { total: processes.reduce((sum, p) => sum + p.rss, 0), processes };
}

export interface SlipwayProcess {
  child: ChildProcess;
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Runs a command that starts Slipway (in its own process group, so stopping it stops everything it started)
 * and waits until GET /api/health answers.
 */
export async function startSlipway(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; port: number; timeoutMs?: number },
): Promise<SlipwayProcess> {
  const base = `http://127.0.0.1:${options.port}`;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Slipway exited with ${child.exitCode}:\n${log}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Slipway did not answer /api/health in time:\n${log}`);
    }
    const healthy = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, base, output: () => log, stop };
}

/**
 * The compiled server, started as `sh scripts/start.sh` starts it, from what was built last (its JavaScript is
 * built first: `scripts/build-server.mjs`, a fraction of a second; the web app is not needed), on a free port.
 */
export async function startCompiledSlipway(
  root: string,
  env: { DATA_DIR: string; LOCAL_REPOS_DIR: string } & Record<string, string>,
): Promise<SlipwayProcess> {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { stdio: 'ignore' });
  const port = await freePort();
  return startSlipway('sh', ['scripts/start.sh'], {
    cwd: root,
    port,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SLIPWAY_SKIP_BUILD: '1',
      ...env,
    },
  });
}

/** Local sign-in (no GitHub configured): the answer sets the session and anti-forgery cookies. */
export async function signIn(base: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/auth/github`, { redirect: 'manual' });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
  const xsrf = decodeURIComponent(cookies.find((c) => c.includes('XSRF-TOKEN'))?.split('=')[1] ?? '');
  const headers = { cookie: cookies.join('; '), 'x-xsrf-token': xsrf, 'content-type': 'application/json' };
  if ((await fetch(`${base}/api/user`, { headers })).status !== 200) throw new Error('sign-in failed');
  return headers;
}

/** A deployment's status as GET /api/workflow/deployment/status/{sessionId} answers it (the fields benches read). */
export interface DeploymentStatus {
  state: string;
  error: string | null;
  steps: { name: string; status: string; started_at: string | null; finished_at: string | null }[];
}

/**
 * Starts a deployment through the HTTP API (a fresh session id) and polls its status every `pollMs` until it
 * has ended; `elapsedMs` counts from the start request.
 */
export async function deployOverHttp(
  base: string,
  headers: Record<string, string>,
  body: { owner: string; repo: string; branch: string; vmSize: string; workflowType?: 'deploy' | 'redeploy' },
  pollMs = 250,
): Promise<{ deploymentId: string; elapsedMs: number; status: DeploymentStatus }> {
  const sessionId = randomUUID();
  const started = performance.now();
  const response = await fetch(`${base}/api/workflow/deployment/start`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ sessionId, ...body }),
  });
  if (response.status !== 200)
    throw new Error(`start ${body.repo}: ${response.status} ${await response.text()}`);
  const { deploymentId } = (await response.json()) as { deploymentId: string };
  for (;;) {
    const status = (await (
      await fetch(`${base}/api/workflow/deployment/status/${sessionId}`, { headers })
    ).json()) as DeploymentStatus;
    if (status.state !== 'started') return { deploymentId, elapsedMs: performance.now() - started, status };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Deletes a workspace through the HTTP API; throws with the answer when it was not deleted. */
export async function deleteWorkspaceOverHttp(base: string, headers: Record<string, string>, name: string) {
  // No content type: Fastify refuses an empty body declared as JSON.
  const { 'content-type': _json, ...deleteHeaders } = headers;
  const deleted = await fetch(`${base}/api/workspace-delete/${name}`, {
    method: 'DELETE',
    headers: deleteHeaders,
  });
  if (!deleted.ok) throw new Error(`${deleted.status} ${await deleted.text()}`);
}
