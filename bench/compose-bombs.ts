/**
 * Compose bombs (issue 13): a 10 MB compose file and a YAML alias bomb, each submitted through the real
 * deployment path (POST /api/workflow/deployment/start on the real server, local repositories, local VM provider)
 * while 50 clients call GET /api/user without pause. Prints the time from "start" to the refusal for each bomb
 * (goal < 1 s) and the p50/p99 of /api/user in a quiet window and during the bombs (goal p99 < 100 ms).
 * With DATABASE_URL (PostgreSQL) the server uses it, and the bench also reads the build log's own timestamps to
 * print how long the check itself took ("Found compose.yaml" → "Deployment failed"), apart from clone and clean-up.
 * Run: `npx tsx bench/compose-bombs.ts` (Docker Engine needed; nothing is built or run).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { decodeLogChunk } from '../apps/server/src/logs/logChunkFormat.js';
import { freePort } from '../apps/server/src/test/fixtures/freePort.js';
import { createHostileWorld } from '../apps/server/src/test/fixtures/hostileRepos.js';
import { printResult } from './lib/result.js';
import { deployOverHttp } from './lib/slipwayProcess.js';

const CLIENTS = Number(process.env.CLIENTS ?? 50);
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

function tenMegabyteCompose(): string {
  const lines = ['services:', '  web:', '    image: busybox:1.36', '    environment:'];
  for (let i = 0; Buffer.byteLength(lines.join('\n')) < 10 * 1024 * 1024; i++) {
    for (let j = 0; j < 1000; j++) lines.push(`      KEY_${i}_${j}: value-value-value-value-${j}`);
  }
  return `${lines.join('\n')}\n`;
}

function aliasBomb(): string {
  const lines = ['x-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghij';
  for (let i = 1; i < names.length; i++) {
    lines.push(
      `x-${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    );
  }
  lines.push('services:', '  web:', '    image: busybox:1.36', '    command: *j');
  return `${lines.join('\n')}\n`;
}

const world = createHostileWorld();
world.repo('warm-up', {
  'compose.yaml': 'services:\n  web:\n    image: busybox:1.36\n    privileged: true\n',
});
world.repo('ten-megabytes', { 'compose.yaml': tenMegabyteCompose() });
world.repo('alias-bomb', { 'compose.yaml': aliasBomb() });

const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: REPO_ROOT,
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: base,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOCAL_REPOS_DIR: world.root,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  },
  detached: true,
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = async () => {
  if (server.pid !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
  world.cleanup();
};

try {
  for (let ready = false; !ready; ) {
    ready = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await sleep(250);
  }
  // Local sign-in (no GitHub configured): the answer sets the session and anti-forgery cookies.
  const signIn = await fetch(`${base}/api/auth/github`, { redirect: 'manual' });
  const cookies = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const cookie = cookies.join('; ');
  const xsrf = decodeURIComponent(cookies.find((c) => c.includes('XSRF-TOKEN'))?.split('=')[1] ?? '');
  const headers = { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' };
  if ((await fetch(`${base}/api/user`, { headers })).status !== 200) throw new Error('sign-in failed');

  /** From the build log's timestamps: the line before the check to the line reporting the refusal. */
  async function checkMs(deploymentId: string): Promise<number> {
    if (!process.env.DATABASE_URL) return Number.NaN;
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      const chunks = await db.query<{ payload: Buffer; line_count: number }>(
        'select payload, line_count from log_chunks where deployment_id = $1 order by id',
        [deploymentId],
      );
      const rows = chunks.rows.flatMap((chunk) => decodeLogChunk(chunk.payload, chunk.line_count));
      const found = rows.find((r) => r.line.startsWith('Found '))?.ts.getTime();
      const failed = rows.find((r) => r.line.startsWith('Deployment failed'))?.ts.getTime();
      return found !== undefined && failed !== undefined ? failed - found : Number.NaN;
    } finally {
      await db.end();
    }
  }

  async function refusal(repo: string) {
    const { deploymentId, elapsedMs, status } = await deployOverHttp(
      base,
      headers,
      { owner: 'operator', repo, branch: 'main', vmSize: 'Standard_B2ats_v2' },
      20,
    );
    const failed = status.steps.find((s) => s.status === 'failed');
    const stepMs =
      failed?.started_at && failed.finished_at
        ? Date.parse(failed.finished_at) - Date.parse(failed.started_at)
        : Number.NaN;
    return {
      totalMs: elapsedMs,
      stepMs,
      step: failed?.name,
      error: status.error,
      checkMs: await checkMs(deploymentId),
    };
  }

  let load = true;
  let latencies: number[] = [];
  const client = async () => {
    while (load) {
      const at = performance.now();
      await (await fetch(`${base}/api/user`, { headers })).arrayBuffer();
      latencies.push(performance.now() - at);
    }
  };
  await refusal('warm-up');
  const clients = Array.from({ length: CLIENTS }, client);
  await sleep(3000);
  const quiet = latencies;
  latencies = [];
  const results: Record<string, Awaited<ReturnType<typeof refusal>>> = {};
  for (const repo of ['ten-megabytes', 'alias-bomb']) results[repo] = await refusal(repo);
  const during = latencies;
  load = false;
  await Promise.all(clients);

  const ms = (value: number) => `${value.toFixed(0)} ms`;
  for (const [repo, result] of Object.entries(results)) {
    console.log(
      `${repo}: refused in ${ms(result.totalMs)} from start (step ${result.step}: ${ms(result.stepMs)} with clean-up; the check itself: ${ms(result.checkMs)}) — ${result.error}`,
    );
  }
  for (const [repo, result] of Object.entries(results)) {
    printResult(`compose bomb refused from start (${repo})`, ms(result.totalMs), '< 1 s');
  }
  printResult(
    `GET /api/user p99 during the bombs, ${CLIENTS} clients`,
    ms(percentile(during, 99)),
    '< 100 ms',
  );
  console.log(
    `GET /api/user with ${CLIENTS} concurrent clients: quiet p50 ${ms(percentile(quiet, 50))} p99 ${ms(percentile(quiet, 99))} (${quiet.length} calls); during the bombs p50 ${ms(percentile(during, 50))} p99 ${ms(percentile(during, 99))} (${during.length} calls)`,
  );
} finally {
  await stop();
}
