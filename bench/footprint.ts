/**
 * Footprint (issue 16): Slipway started exactly as a new user starts it (the README's `sh scripts/start.sh`: build,
 * then one Node process on the compiled server; VIA_NPM=1: `npm start`, which keeps npm alive as its parent),
 * signed in (local mode), the dashboard's calls made, then left idle. Prints the RSS of the whole process tree
 * the command leaves running, then deploys a small app that logs
 * five lines a second, opens 50 log viewers (SSE, /api/workspace-logs-stream/:name) and prints it again, then
 * redeploys it 10 times (a new commit each time, so each one builds and replaces it) with the viewers
 * following, and prints it once more.
 * Run: `npx tsx bench/footprint.ts` (Docker Engine and busybox:1.36 needed for the viewers' part).
 * SKIP_BUILD=1 skips the build (`npm run build` already done).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mb, printResult } from './lib/result.js';
import {
  deleteWorkspaceOverHttp,
  deployOverHttp,
  freePort,
  signIn,
  startSlipway,
  treeRss,
} from './lib/slipwayProcess.js';

const VIEWERS = Number(process.env.VIEWERS ?? 50);
const REDEPLOYS = Number(process.env.REDEPLOYS ?? 10);
/** SLIPWAY_ROOT: another checkout to measure the same way (e.g. an older commit, for a before/after). */
const REPO_ROOT = process.env.SLIPWAY_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The README's hello app, printing a line five times a second so the viewers have something to follow; each
 * call commits a new version of its page.
 */
function helloRepository(root: string, version = 0) {
  const dir = path.join(root, 'operator', 'hello');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'Dockerfile'),
    [
      'FROM busybox:1.36',
      `RUN mkdir /www && echo hello ${version} > /www/index.html`,
      'EXPOSE 8080',
      'CMD ["sh", "-c", "httpd -p 8080 -h /www; i=0; while true; do echo line $i; i=$((i+1)); usleep 200000; done"]',
      '',
    ].join('\n'),
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=me', '-c', 'user.email=me@example.com', ...args], { cwd: dir });
  if (version === 0) git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', `hello ${version}`);
}

/** Samples the tree's RSS once a second until three samples in a row agree within 2 MB (at most 60 s). */
async function settledRss(pid: number) {
  let samples: number[] = [];
  for (let i = 0; i < 60; i++) {
    samples = [...samples, treeRss(pid).total].slice(-3);
    if (samples.length === 3 && Math.max(...samples) - Math.min(...samples) < 2 * 1024 * 1024) break;
    await sleep(1000);
  }
  return treeRss(pid);
}

const work = mkdtempSync(path.join(tmpdir(), 'slipway-footprint-'));
const reposDir = path.join(work, 'repos');
helloRepository(reposDir);
const port = await freePort();
const skipBuild = process.env.SKIP_BUILD === '1';
const viaNpm = process.env.VIA_NPM === '1';
const [command, args] = viaNpm ? ['npm', ['start', '--silent']] : ['sh', ['scripts/start.sh']];
const startCommand = viaNpm ? 'npm start' : 'sh scripts/start.sh';
const started = performance.now();
const slipway = await startSlipway(command, args as string[], {
  cwd: REPO_ROOT,
  port,
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: path.join(work, 'data'),
    LOCAL_REPOS_DIR: reposDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...(skipBuild ? { SLIPWAY_SKIP_BUILD: '1' } : {}),
  },
});
const pid = slipway.child.pid!;
console.log(
  `${startCommand} answered /api/health after ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const viewers: ReadableStreamDefaultReader<Uint8Array>[] = [];
let headers: Record<string, string> = {};
try {
  const { base } = slipway;
  headers = await signIn(base);
  const get = async (route: string) => {
    const response = await fetch(`${base}${route}`, { headers });
    await response.arrayBuffer();
    return response.status;
  };
  // What the dashboard loads: the page, the user, the public config, workspaces and each one's panels.
  const dashboard = async (workspace?: string) => {
    const routes = [
      '/dashboard',
      '/api/user',
      '/api/public-config',
      '/api/user-workspaces',
      '/api/subscriptions',
    ];
    if (workspace) {
      routes.push(
        `/api/workspace-services/${workspace}`,
        `/api/workspace-logs/${workspace}`,
        `/api/alerts-active/${workspace}`,
        `/api/monitoring/status/${workspace}`,
        `/api/monitoring/info/${workspace}`,
      );
    }
    return Promise.all(routes.map(get));
  };
  await dashboard();
  const idle = await settledRss(pid);
  for (const p of idle.processes)
    console.log(`  ${String(p.pid).padStart(7)} ${mb(p.rss).padStart(7)}  ${p.name}`);
  console.log(`idle after sign-in and dashboard: ${mb(idle.total)} (${idle.processes.length} processes)`);
  const server = idle.processes.reduce((largest, p) => (p.rss > largest.rss ? p : largest));
  printResult(
    `idle memory of what \`${startCommand}\` leaves running`,
    mb(idle.total),
    '< 150 MB',
    'Dokploy 464–633 MiB; Coolify 0.5–1.2 GB',
  );
  printResult('idle memory of the server process alone', mb(server.rss), '< 150 MB');

  /** Deploys hello (or redeploys it) and waits until it is Live. */
  const deploy = async (workflowType: 'deploy' | 'redeploy') => {
    const body = {
      owner: 'operator',
      repo: 'hello',
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
      workflowType,
    };
    const { status } = await deployOverHttp(base, headers, body);
    if (status.state !== 'completed') throw new Error(`deployment failed: ${status.error}`);
  };
  // A deployed app and 50 people following its logs.
  await deploy('deploy');
  await dashboard('hello');
  const deployed = await settledRss(pid);
  console.log(`one app deployed, dashboard loaded: ${mb(deployed.total)}`);

  const received = new Array<number>(VIEWERS).fill(0);
  for (let index = 0; index < VIEWERS; index++) {
    const response = await fetch(`${base}/api/workspace-logs-stream/hello?follow=true&initial_lines=20`, {
      headers,
    });
    if (response.status !== 200) throw new Error(`viewer ${index}: HTTP ${response.status}`);
    const reader = response.body!.getReader();
    viewers.push(reader);
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        received[index]! += new TextDecoder().decode(value).split('\ndata: ').length - 1 || 1;
      }
    })();
  }
  // Every viewer follows live lines (at five a second, 30 lines is six seconds of streaming each).
  const deadline = Date.now() + 60_000;
  while (received.some((count) => count < 30) && Date.now() < deadline) await sleep(500);
  const watched = await settledRss(pid);
  console.log(
    `${VIEWERS} log viewers following (${received.filter((count) => count >= 30).length}/${VIEWERS} receiving): ${mb(watched.total)}`,
  );
  printResult(
    `memory with ${VIEWERS} log viewers (one app deployed)`,
    mb(watched.total),
    `flat (deployed: ${mb(deployed.total)})`,
  );

  // Ten more deployments, each of a new commit, with the viewers still following.
  for (let version = 1; version <= REDEPLOYS; version++) {
    helloRepository(reposDir, version);
    await deploy('redeploy');
  }
  await dashboard('hello');
  const redeployed = await settledRss(pid);
  console.log(
    `after ${REDEPLOYS} more deployments, ${VIEWERS} viewers still following: ${mb(redeployed.total)}`,
  );
  printResult(
    `memory after ${REDEPLOYS} more deployments (${VIEWERS} viewers following)`,
    mb(redeployed.total),
    `flat (with the viewers: ${mb(watched.total)})`,
  );
} finally {
  for (const reader of viewers) await reader.cancel().catch(() => undefined);
  await deleteWorkspaceOverHttp(slipway.base, headers, 'hello').catch((error: Error) =>
    console.warn(
      `The benchmark's workspace 'hello' was not deleted (${error.message}): its containers are left running.`,
    ),
  );
  await slipway.stop();
  rmSync(work, { recursive: true, force: true });
}
