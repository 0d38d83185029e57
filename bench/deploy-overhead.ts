/**
 * Deployment overhead: time from "Start Deployment" to Live through Slipway against the bare minimum on the same
 * machine — `git clone --depth 1` + `docker-compose up -d --build` + the first HTTP answer — on the same
 * three-service repository: cold (no build cache); warm (the build cache warm: Slipway redeploys the same commit,
 * which restarts nothing, as `up` would not); and, with no goal of its own, a redeploy of a commit that changes
 * web against bare `up -d --build` of that commit on the running project, until the new page answers.
 * Slipway runs as a user runs it: the compiled server started by `sh scripts/start.sh` (local VM provider, the
 * real workflow), driven over its HTTP API. `IN_PROCESS=1` runs it inside this process from the TypeScript
 * sources instead (as earlier figures were taken; the first deployment then waits ~0.3 s more for the compose
 * check worker, which loads its sources through tsx).
 * Run: `npx tsx bench/deploy-overhead.ts` (Docker Engine and busybox:1.36 needed). ROUNDS=n repeats each.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/config/config.js';
import { buildApp } from '../apps/server/src/platform/app.js';
import { createPlatform } from '../apps/server/src/platform/platform.js';
import { createFixtureRepos } from '../apps/server/src/test/fixtures/fixtureRepos.js';
import { TestClient } from '../apps/server/src/test/testClient.js';
import { median, printResult } from './lib/result.js';
import {
  type DeploymentStatus,
  deleteWorkspaceOverHttp,
  deployOverHttp,
  signIn,
  startCompiledSlipway,
} from './lib/slipwayProcess.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const IN_PROCESS = process.env.IN_PROCESS === '1';
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO = 'three-service';
const BARE_PROJECT = 'slipway-bench-bare';
const docker = new Docker({ socketPath: '/var/run/docker.sock' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const run = (file: string, args: string[], cwd?: string) =>
  execFileSync(file, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: tmpdir() },
  })
    .toString()
    .trim();

/** The URL answers (with `text` in its body, when given). */
async function answers(url: string, text?: string): Promise<boolean> {
  try {
    const body = await (await fetch(url, { signal: AbortSignal.timeout(1000) })).text();
    return text === undefined || body.includes(text);
  } catch {
    return false;
  }
}

/** Commits a new page for web (its first build stage changes); returns the page's text. */
function changeWeb(repoDir: string): string {
  const text = `changed ${randomUUID()}`;
  const file = path.join(repoDir, 'web', 'Dockerfile');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/<h1>.*<\/h1>/, `<h1>${text}</h1>`));
  run(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-am', text],
    repoDir,
  );
  return text;
}

/** Removes the images both paths built, so the next build starts without cache (the base image stays). */
async function dropBuildCache() {
  for (const image of await docker.listImages()) {
    const tags = image.RepoTags ?? [];
    if (tags.some((tag) => tag.startsWith('slipway-') || tag.startsWith(`${BARE_PROJECT}_`))) {
      await docker
        .getImage(image.Id)
        .remove({ force: true })
        .catch(() => {});
    }
  }
  await docker.pruneImages({ filters: { dangling: ['true'] } }).catch(() => {});
}

/** A run's phases, in the terms both paths share (ms). */
type Phases = Record<(typeof PHASES)[number], number>;
interface Measured {
  total: number;
  phases: Phases;
}
const PHASES = ['clone', 'checks', 'build + start', 'verify', 'route + record', 'other'] as const;

/** Slipway's steps under the phases they belong to. */
const STEP_PHASES: Record<string, (typeof PHASES)[number]> = {
  'fetch-source': 'clone',
  'provision-vm': 'checks',
  'detect-project': 'checks',
  'policy-check': 'checks',
  'deploy-application': 'build + start',
  'discover-ports': 'verify',
  'verify-deployment': 'verify',
  'configure-routing': 'route + record',
  'post-deployment': 'route + record',
};

const noPhases = (): Phases => ({
  clone: 0,
  checks: 0,
  'build + start': 0,
  verify: 0,
  'route + record': 0,
  other: 0,
});

/**
 * Clone + `up -d --build` + the first answer of web (with `text`, when given); `into` is the checkout's path.
 * Bare has no checks and no route: its verify is `docker-compose port` and the first answer.
 */
async function bareUp(repoDir: string, into: string, text?: string): Promise<Measured> {
  const phases = noPhases();
  let at = performance.now();
  const started = at;
  const lap = (phase: keyof Phases) => {
    const now = performance.now();
    phases[phase] += now - at;
    at = now;
  };
  run('git', ['clone', '-q', '--depth', '1', '--branch', 'main', '--', `file://${repoDir}`, into]);
  lap('clone');
  run('docker-compose', ['-p', BARE_PROJECT, 'up', '-d', '--build'], into);
  lap('build + start');
  const port = run('docker-compose', ['-p', BARE_PROJECT, 'port', 'web', '8080'], into).split(':').pop();
  while (!(await answers(`http://127.0.0.1:${port}/`, text))) await sleep(50);
  lap('verify');
  return { total: performance.now() - started, phases };
}

/** A first deployment the bare way; with `changed`, then a commit that changes web, deployed over it. */
async function bare(repoDir: string, changed = false): Promise<Measured> {
  const work = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
  let measured = await bareUp(repoDir, path.join(work, 'src'));
  if (changed) measured = await bareUp(repoDir, path.join(work, 'next'), changeWeb(repoDir));
  run('docker-compose', ['-p', BARE_PROJECT, 'down', '-v'], path.join(work, 'src'));
  rmSync(work, { recursive: true, force: true });
  return measured;
}

/** Starts, deploys through and deletes workspaces of one Slipway: the compiled server, or this process. */
interface Slipway {
  deploy(workflowType: 'deploy' | 'redeploy'): Promise<{ elapsedMs: number; status: DeploymentStatus }>;
  deleteWorkspace(): Promise<void>;
  close(): Promise<void>;
}

const DEPLOYMENT = { owner: 'operator', repo: REPO, branch: 'main', vmSize: 'Standard_B2als_v2' };

/** The compiled server as `sh scripts/start.sh` starts it. */
async function startedSlipway(reposRoot: string, dataDir: string): Promise<Slipway> {
  const slipway = await startCompiledSlipway(REPO_ROOT, { DATA_DIR: dataDir, LOCAL_REPOS_DIR: reposRoot });
  const headers = await signIn(slipway.base);
  return {
    deploy: (workflowType) => deployOverHttp(slipway.base, headers, { ...DEPLOYMENT, workflowType }, 50),
    deleteWorkspace: () => deleteWorkspaceOverHttp(slipway.base, headers, REPO),
    close: () => slipway.stop(),
  };
}

/** The platform inside this process, from the TypeScript sources (IN_PROCESS=1). */
async function inProcessSlipway(reposRoot: string, dataDir: string): Promise<Slipway> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOCAL_REPOS_DIR: reposRoot,
    LOG_LEVEL: 'silent',
  });
  const platform = await createPlatform(config, {
    logger: pino({ level: 'silent' }),
    databaseInMemory: true,
  });
  const app = await buildApp(platform, { webDist: path.join(dataDir, 'no-web') });
  await platform.runs.startWorkers();
  const client = await new TestClient(app).signIn('operator');
  return {
    async deploy(workflowType) {
      const sessionId = randomUUID();
      const started = performance.now();
      const response = await client.post('/api/workflow/deployment/start', {
        sessionId,
        ...DEPLOYMENT,
        workflowType,
      });
      if (response.statusCode !== 200) throw new Error(response.body);
      for (;;) {
        const status = (
          await client.get(`/api/workflow/deployment/status/${sessionId}`)
        ).json() as DeploymentStatus;
        if (status.state !== 'started') return { elapsedMs: performance.now() - started, status };
        await sleep(50);
      }
    },
    async deleteWorkspace() {
      const deleted = await client.delete(`/api/workspace-delete/${REPO}`);
      if (deleted.statusCode !== 200) throw new Error(deleted.body);
    },
    async close() {
      await app.close();
      await platform.close();
    },
  };
}

async function main() {
  const repos = createFixtureRepos('operator');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-data-'));
  const slipway = await (IN_PROCESS ? inProcessSlipway : startedSlipway)(repos.root, dataDir);

  /** Start → Live, and its steps under the shared phases ('other': the start request, queue and status polls). */
  async function deploy(workflowType: 'deploy' | 'redeploy'): Promise<Measured> {
    const { elapsedMs, status } = await slipway.deploy(workflowType);
    if (status.state !== 'completed') throw new Error(`deployment failed: ${status.error}`);
    const phases = noPhases();
    for (const step of status.steps) {
      phases[STEP_PHASES[step.name] ?? 'other'] +=
        Date.parse(step.finished_at!) - Date.parse(step.started_at!);
    }
    phases.other += elapsedMs - Object.values(phases).reduce((sum, ms) => sum + ms, 0);
    return { total: elapsedMs, phases };
  }

  const results: Record<string, { slipway: Measured[]; bare: Measured[] }> = {
    cold: { slipway: [], bare: [] },
    warm: { slipway: [], bare: [] },
    changed: { slipway: [], bare: [] },
  };
  const repoDir = path.join(repos.root, 'operator', REPO);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await dropBuildCache();
      results.cold!.bare.push(await bare(repoDir));
      results.warm!.bare.push(await bare(repoDir));
      results.changed!.bare.push(await bare(repoDir, true));
      await dropBuildCache();
      results.cold!.slipway.push(await deploy('deploy'));
      results.warm!.slipway.push(await deploy('redeploy'));
      changeWeb(repoDir);
      results.changed!.slipway.push(await deploy('redeploy'));
      await slipway.deleteWorkspace();
    }
  } finally {
    await slipway.deleteWorkspace().catch(() => {});
    await slipway.close();
    rmSync(dataDir, { recursive: true, force: true });
    repos.cleanup();
  }

  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const totals = (runs: Measured[]) => median(runs.map((run) => run.total));
  console.log(
    `\nDeploy overhead, ${REPO} fixture (3 services, multi-stage build), median of ${ROUNDS} round(s); Slipway ${IN_PROCESS ? 'in this process, from sources' : 'compiled, started by scripts/start.sh'}\n`,
  );
  console.log(
    '            bare (clone + compose up --build + first answer)   Slipway (start → Live)   ratio   overhead',
  );
  for (const [name, r] of Object.entries(results)) {
    const b = totals(r.bare);
    const s = totals(r.slipway);
    console.log(
      `  ${name.padEnd(8)}  ${seconds(b).padStart(10)}${' '.repeat(42)}${seconds(s).padStart(10)}${' '.repeat(13)}${(s / b).toFixed(2).padStart(5)}   ${seconds(s - b).padStart(8)}`,
    );
  }
  const rows = {
    cold: ['first deploy ÷ bare compose, cold', '≤ 1.10×'],
    warm: ['deploy ÷ bare compose, warm (a redeploy of the same commit: nothing restarts)', '≤ 1.25×'],
    changed: ['redeploy of a commit that changes web ÷ bare `up -d --build` of it', '– (no goal)'],
  } as const;
  for (const [name, r] of Object.entries(results)) {
    const [label, goal] = rows[name as keyof typeof rows];
    printResult(
      `${label} (${REPO})`,
      `${(totals(r.slipway) / totals(r.bare)).toFixed(2)}×`,
      goal,
      'not published by any peer',
    );
  }
  console.log('\nPer phase, median ms, bare | Slipway (Slipway: its steps under each phase)');
  console.log(
    `  ${''.padEnd(16)}${Object.keys(results)
      .map((name) => name.padStart(16))
      .join('')}`,
  );
  for (const phase of PHASES) {
    const cells = Object.values(results).map((r) => {
      const b = median(r.bare.map((run) => run.phases[phase]));
      const s = median(r.slipway.map((run) => run.phases[phase]));
      return `${Math.round(b)} | ${Math.round(s)}`.padStart(16);
    });
    console.log(`  ${phase.padEnd(16)}${cells.join('')}`);
  }
  console.log(
    '\nclone: git clone | fetch-source. checks: none | provision-vm, detect-project, policy-check. build + start:' +
      '\n`up -d --build` | deploy-application (builds side by side through the engine, then `up --no-build`).' +
      '\nverify: `docker-compose port` + first answer of web | discover-ports, verify-deployment (every service; a' +
      '\nport-less one must run 0.5 s without a restart). route + record: none | configure-routing, post-deployment.' +
      '\nother: none | the start request, the queue and the status polls (every 50 ms).',
  );
}

await main();
