/**
 * Scale (issue 32): one control plane carrying 10, 50 and 200 live workspaces of a small app on the local engine,
 * then the same with two server replicas on PostgreSQL + Redis. Slipway runs as a user runs it (the compiled
 * server started by `sh scripts/start.sh`, local sign-in, local repositories), driven over its HTTP API; every
 * figure is taken from outside its processes. For each size N, growing the same fleet:
 * 1. N workspaces deployed through the API (PARALLEL requests in flight): how long reaching N took;
 * 2. server RSS after IDLE_SECONDS (30) at N, minus RSS with none, ÷ N; CPU of the server process(es) over
 *    CPU_SECONDS (60) at rest, from /proc/{pid}/stat (children's time included);
 * 3. crash → alert: CRASHES (20) random workspaces' containers killed one at a time; engine's finish time → the
 *    alert mail at the bench's SMTP server (each is started again and its "Resolved" mail awaited);
 * 4. GET /api/user-workspaces, LIST_REQUESTS (200) one after the other: p99;
 * 5. a deployment started while N are live (a redeploy): API call → its first step started;
 * 6. V log viewers (SSE), spread over WRITERS (10) workspaces and the replicas, while those workspaces'
 *    containers write LINES (100) lines each, one every INTERVAL_MS (100): delivery p99 against the engine's
 *    timestamp of each line, and the servers' RSS growth while they follow.
 * Prints a table per replica count (measure | each size | goal) and `RESULT` lines for `npm run bench`.
 * Run: `npx tsx bench/scale.ts [--workspaces 10,50,200] [--viewers 1000] [--replicas 1|2|both]`
 * (Docker Engine, docker-compose and busybox:1.36 needed; two replicas need TEST_DATABASE_URL and
 * TEST_REDIS_URL, which `source scripts/services.sh` exports).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inotifyWarning } from '../apps/server/src/logs/inotifyLimit.js';
import { testDocker } from '../apps/server/src/test/runningWorkspaces.js';
import { startLoopbackSmtp } from '../apps/server/src/test/smtp.js';
import { measureLogViewers, type ViewerRun } from './lib/logViewers.js';
import { printResult } from './lib/result.js';
import {
  createAppRepository,
  deployFleet,
  deploymentStartLatency,
  fleetContainers,
  removeFleet,
} from './lib/scaleFleet.js';
import {
  crashToAlert,
  idleCpuPercent,
  pickRandom,
  serverRss,
  sleep,
  workspaceListLatency,
} from './lib/scaleMeasures.js';
import { type SlipwayCluster, startCluster } from './lib/slipwayCluster.js';
import { signIn } from './lib/slipwayProcess.js';

const { values: args } = parseArgs({
  options: {
    workspaces: { type: 'string', default: '10,50,200' },
    viewers: { type: 'string', default: '1000' },
    replicas: { type: 'string', default: 'both' },
  },
});
const SIZES = args.workspaces
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const VIEWERS = Number(args.viewers);
const REPLICAS: (1 | 2)[] = args.replicas === 'both' ? [1, 2] : [Number(args.replicas) === 2 ? 2 : 1];
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PARALLEL = env('PARALLEL', 8);
const IDLE_SECONDS = env('IDLE_SECONDS', 30);
const CPU_SECONDS = env('CPU_SECONDS', 60);
const CRASHES = env('CRASHES', 20);
const LIST_REQUESTS = env('LIST_REQUESTS', 200);
const WRITERS = env('WRITERS', 10);
const LINES = env('LINES', 100);
const INTERVAL_MS = env('INTERVAL_MS', 100);
if (SIZES.some((n) => !Number.isInteger(n) || n < 1) || !(VIEWERS >= 0)) {
  throw new Error('usage: bench/scale.ts [--workspaces 10,50,200] [--viewers 1000] [--replicas 1|2|both]');
}
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One size's figures (ms, bytes, percent). */
interface SizeRun {
  n: number;
  reachSeconds: number;
  /** Deployments of the fleet that failed (each was started once more, and the second succeeded). */
  deployFailures: string[];
  rss: number;
  rssPerWorkspace: number;
  cpuPercent: number;
  crash: { p50: number; p95: number; max: number; count: number };
  list: { p50: number; p99: number };
  deployStartMs: number;
  viewers?: ViewerRun;
}

const docker = testDocker();
const MB = 1024 * 1024;
const mb = (bytes: number, digits = 0) => `${(bytes / MB).toFixed(digits)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const msText = (ms: number) => `${ms.toFixed(0)} ms`;

/** Samples the servers' RSS once a second until three samples in a row agree within 2 MB (at most 60 s). */
async function settledRss(pids: number[]) {
  let samples: number[] = [];
  for (let i = 0; i < 60; i++) {
    samples = [...samples, serverRss(pids)].slice(-3);
    if (samples.length === 3 && Math.max(...samples) - Math.min(...samples) < 2 * MB) break;
    await sleep(1000);
  }
  return serverRss(pids);
}

/** Everything the bench started, undone (also on Ctrl-C). */
const cleanups: (() => Promise<void>)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: Error) => console.warn(`cleaning up: ${error.message}`));
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.warn(`${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** The control plane with no workspace: RSS and CPU at rest, the baseline of each size's figures. */
interface Baseline {
  rss: number;
  cpuPercent: number;
}

async function runReplicas(count: 1 | 2): Promise<{ baseline: Baseline; runs: SizeRun[] }> {
  const label = count === 1 ? 'one control plane (embedded defaults)' : 'two replicas (PostgreSQL + Redis)';
  console.log(`\n## ${label}`);
  const runId = randomBytes(3).toString('hex');
  const work = mkdtempSync(path.join(tmpdir(), 'slipway-scale-'));
  cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
  const reposDir = path.join(work, 'repos');
  const smtp = await startLoopbackSmtp();
  cleanups.push(() => smtp.close());
  const started = performance.now();
  const cluster: SlipwayCluster = await startCluster(REPO_ROOT, work, count, {
    LOCAL_REPOS_DIR: reposDir,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
  });
  cleanups.push(() => cluster.stop());
  const bases = cluster.replicas.map((replica) => replica.base);
  const headers = await signIn(bases[0]!);
  const names: string[] = [];
  cleanups.push(() => removeFleet(docker, runId, bases[0], headers, names));
  console.log(`${count} server process(es) answered after ${secs(performance.now() - started)}`);

  // At rest as each size is measured: start-up's own work (migrations, the Compose CLI's version check) is over.
  await sleep(IDLE_SECONDS * 1000);
  const rss0 = await settledRss(cluster.pids);
  const cpu0 = await idleCpuPercent(cluster.pids, CPU_SECONDS);
  console.log(`no workspace: server RSS ${mb(rss0)}, CPU at rest ${cpu0.toFixed(2)} % of one core`);
  const crashed = new Set<string>();
  const runs: SizeRun[] = [];
  for (const n of SIZES) {
    console.log(`\n### ${n} workspaces`);
    const added = Array.from({ length: n - names.length }, (_, i) => `sc${runId}-${names.length + i}`);
    for (const name of added) createAppRepository(reposDir, runId, name);
    const deployStarted = performance.now();
    names.push(...added);
    const deployFailures = await deployFleet(bases, headers, added, PARALLEL);
    const reachSeconds = (performance.now() - deployStarted) / 1000;
    console.log(`  ${added.length} deployed in ${reachSeconds.toFixed(0)} s (${n} live)`);

    await sleep(IDLE_SECONDS * 1000);
    const rss = await settledRss(cluster.pids);
    const rssPerWorkspace = (rss - rss0) / n;
    console.log(`  RSS after ${IDLE_SECONDS} s idle: ${mb(rss)} (${mb(rssPerWorkspace, 2)} per workspace)`);
    const cpuPercent = await idleCpuPercent(cluster.pids, CPU_SECONDS);
    console.log(`  CPU at rest over ${CPU_SECONDS} s: ${cpuPercent.toFixed(2)} % of one core`);

    const list = await workspaceListLatency(bases, headers, LIST_REQUESTS, n);
    console.log(
      `  GET /api/user-workspaces ×${LIST_REQUESTS}: p50 ${msText(list.p50)}, p99 ${msText(list.p99)}`,
    );
    const deployStartMs = await deploymentStartLatency(bases[0]!, headers, pickRandom(names, 1)[0]!);
    console.log(
      `  a deployment while ${n} are live: first step started ${msText(deployStartMs)} after the call`,
    );

    const containers = await fleetContainers(docker, runId);
    if (containers.length !== n)
      throw new Error(`${containers.length} app containers on the engine, not ${n}`);
    const victims = pickRandom(
      containers.filter((c) => !crashed.has(c.workspaceName)),
      CRASHES,
    );
    for (const victim of victims) crashed.add(victim.workspaceName);
    const crash = { ...(await crashToAlert(docker, smtp, victims)), count: victims.length };
    console.log(
      `  crash → alert mail over ${crash.count} kills: p50 ${secs(crash.p50)}, p95 ${secs(crash.p95)}, max ${secs(crash.max)}`,
    );

    let viewers: ViewerRun | undefined;
    if (VIEWERS > 0) {
      viewers = await measureLogViewers({
        docker,
        bases,
        headers,
        pids: cluster.pids,
        writers: pickRandom(containers, WRITERS),
        viewers: VIEWERS,
        lines: LINES,
        intervalMs: INTERVAL_MS,
      });
      const growth = viewers.rss.peak - viewers.rss.before;
      console.log(
        `  ${VIEWERS} log viewers of ${viewers.writers} workspaces: ${viewers.complete}/${VIEWERS} got all ${LINES} lines; ` +
          `delay p50 ${msText(viewers.p50)}, p99 ${msText(viewers.p99)}, max ${msText(viewers.max)}; ` +
          `RSS ${mb(viewers.rss.before)} → connected ${mb(viewers.rss.connected)} → peak ${mb(viewers.rss.peak)} (+${mb(growth)})`,
      );
    }
    runs.push({
      n,
      reachSeconds,
      deployFailures,
      rss,
      rssPerWorkspace,
      cpuPercent,
      crash,
      list,
      deployStartMs,
      ...(viewers ? { viewers } : {}),
    });
  }
  await cleanUp();
  return { baseline: { rss: rss0, cpuPercent: cpu0 }, runs };
}

/** One table per replica count: each measure across the sizes, beside its goal. */
function report(count: 1 | 2, baseline: Baseline, runs: SizeRun[]) {
  const who = count === 1 ? '1 server' : '2 replicas';
  const rows: [string, (run: SizeRun) => string, string][] = [
    ['time to reach N live (from the size before)', (r) => `${r.reachSeconds.toFixed(0)} s`, '-'],
    ['deployments failed (then retried)', (r) => String(r.deployFailures.length), '0'],
    ['server RSS at N, idle', (r) => mb(r.rss), '-'],
    ['RSS growth per workspace', (r) => mb(r.rssPerWorkspace, 2), '< 0.5 MB'],
    // The first deployments also warm what any deployment loads (compose check threads, kept idle): the slope
    // from one size to the next is what one more workspace costs.
    [
      'RSS growth per workspace from the size before',
      (r) => {
        const before = runs[runs.indexOf(r) - 1];
        return before ? mb((r.rss - before.rss) / (r.n - before.n), 2) : '-';
      },
      '< 0.5 MB',
    ],
    ['idle CPU (% of one core)', (r) => `${r.cpuPercent.toFixed(2)} %`, '< 2 % at 200'],
    ['crash → alert p50', (r) => secs(r.crash.p50), '-'],
    ['crash → alert p95', (r) => `${secs(r.crash.p95)} (${r.crash.count})`, '< 2 s at 200'],
    ['GET /api/user-workspaces p99', (r) => msText(r.list.p99), '< 100 ms'],
    ['deployment call → first step', (r) => msText(r.deployStartMs), '< 1 s'],
    ['log delivery p99', (r) => (r.viewers ? msText(r.viewers.p99) : '-'), '< 100 ms'],
    [
      'viewers that got every line',
      (r) => (r.viewers ? `${r.viewers.complete}/${r.viewers.viewers}` : '-'),
      'all',
    ],
    [
      'RSS growth while viewers follow',
      (r) => (r.viewers ? mb(r.viewers.rss.peak - r.viewers.rss.before) : '-'),
      '< 50 MB',
    ],
  ];
  const header = ['measure', '0', ...runs.map((r) => String(r.n)), 'goal'];
  const atZero: Record<string, string> = {
    'server RSS at N, idle': mb(baseline.rss),
    'idle CPU (% of one core)': `${baseline.cpuPercent.toFixed(2)} %`,
  };
  const table = [
    header,
    ...rows.map(([measure, figure, goal]) => [measure, atZero[measure] ?? '-', ...runs.map(figure), goal]),
  ];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${who}, ${VIEWERS} log viewers (${LINES} lines each from ${WRITERS} workspaces)`);
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of table.slice(1)) console.log(line(row));
  printResult(`scale, ${who}, no workspace: server RSS`, mb(baseline.rss));
  printResult(`scale, ${who}, no workspace: idle CPU (% of one core)`, atZero['idle CPU (% of one core)']!);
  const first = runs[0]!;
  for (const run of runs) {
    for (const [measure, figure, goal] of rows) {
      const compared = run === first ? '' : ` (at ${first.n}: ${figure(first)})`;
      printResult(`scale, ${who}, ${run.n} workspaces: ${measure}`, `${figure(run)}${compared}`, goal);
    }
  }
}

const benchStarted = performance.now();
console.log(`scale bench started ${new Date().toISOString()}`);
// Past this machine's inotify instances Docker polls container logs every 200 ms (apps/server/src/logs/inotifyLimit.ts).
const inotify = inotifyWarning(Math.max(...SIZES) + WRITERS);
if (inotify) console.log(`warning: ${inotify}`);
try {
  const results: [1 | 2, Awaited<ReturnType<typeof runReplicas>>][] = [];
  for (const count of REPLICAS) results.push([count, await runReplicas(count)]);
  for (const [count, { baseline, runs }] of results) report(count, baseline, runs);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
  console.log(`\nscale bench took ${((performance.now() - benchStarted) / 60_000).toFixed(1)} min`);
  // Sockets of the engine's client and of closed streams may linger for minutes; nothing is left to wait for.
  process.exit();
}
