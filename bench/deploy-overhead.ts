/**
 * Deployment overhead: time from "Start Deployment" to Live through Slipway (HTTP API, local VM provider, the
 * real workflow) against the bare minimum on the same machine — `git clone --depth 1` + `docker-compose up -d
 * --build` + the first HTTP answer — on the same three-service repository, cold (no build cache) and warm.
 * Run: `npx tsx bench/deploy-overhead.ts` (Docker Engine and busybox:1.36 needed). ROUNDS=n repeats each.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/config/config.js';
import { startJobWorkers } from '../apps/server/src/jobs/jobCatalogue.js';
import { buildApp } from '../apps/server/src/platform/app.js';
import { createPlatform } from '../apps/server/src/platform/platform.js';
import { createFixtureRepos } from '../apps/server/src/test/fixtures/fixtureRepos.js';
import { TestClient } from '../apps/server/src/test/testClient.js';
import { printResult } from './lib/result.js';

const ROUNDS = Number(process.env.ROUNDS ?? 2);
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

async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
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

async function bare(repoDir: string): Promise<number> {
  const work = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
  const started = performance.now();
  run('git', [
    'clone',
    '-q',
    '--depth',
    '1',
    '--branch',
    'main',
    '--',
    `file://${repoDir}`,
    path.join(work, 'src'),
  ]);
  run('docker-compose', ['-p', BARE_PROJECT, 'up', '-d', '--build'], path.join(work, 'src'));
  const port = run('docker-compose', ['-p', BARE_PROJECT, 'port', 'web', '8080'], path.join(work, 'src'))
    .split(':')
    .pop();
  while (!(await answers(`http://127.0.0.1:${port}/`))) await sleep(50);
  const elapsed = performance.now() - started;
  run('docker-compose', ['-p', BARE_PROJECT, 'down', '-v'], path.join(work, 'src'));
  rmSync(work, { recursive: true, force: true });
  return elapsed;
}

async function main() {
  const repos = createFixtureRepos('operator');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOCAL_REPOS_DIR: repos.root,
    LOG_LEVEL: 'silent',
  });
  const platform = await createPlatform(config, {
    logger: pino({ level: 'silent' }),
    databaseInMemory: true,
  });
  const app = await buildApp(platform, { webDist: path.join(dataDir, 'no-web') });
  await startJobWorkers(platform.queue, platform.deployments.jobHandlers);
  const client = await new TestClient(app).signIn('operator');

  const stepTimes: Record<string, number[]> = {};
  async function slipway(workflowType: 'deploy' | 'redeploy'): Promise<number> {
    const sessionId = randomUUID();
    const started = performance.now();
    const response = await client.post('/api/workflow/deployment/start', {
      sessionId,
      owner: 'operator',
      repo: REPO,
      branch: 'main',
      vmSize: 'Standard_B2als_v2',
      workflowType,
    });
    if (response.statusCode !== 200) throw new Error(response.body);
    for (;;) {
      const status = (await client.get(`/api/workflow/deployment/status/${sessionId}`)).json();
      if (status.state === 'completed') {
        const elapsed = performance.now() - started;
        for (const step of status.steps as { name: string; started_at: string; finished_at: string }[]) {
          const key = `${workflowType === 'deploy' ? 'cold' : 'warm'} ${step.name}`;
          const times = stepTimes[key] ?? [];
          times.push(Date.parse(step.finished_at) - Date.parse(step.started_at));
          stepTimes[key] = times;
        }
        return elapsed;
      }
      if (status.state === 'failed') throw new Error(`deployment failed: ${status.error}`);
      await sleep(50);
    }
  }

  const results: Record<string, { slipway: number[]; bare: number[] }> = {
    cold: { slipway: [], bare: [] },
    warm: { slipway: [], bare: [] },
  };
  const repoDir = path.join(repos.root, 'operator', REPO);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await dropBuildCache();
      results.cold!.bare.push(await bare(repoDir));
      results.warm!.bare.push(await bare(repoDir));
      await dropBuildCache();
      results.cold!.slipway.push(await slipway('deploy'));
      results.warm!.slipway.push(await slipway('redeploy'));
      const deleted = await client.delete(`/api/workspace-delete/${REPO}`);
      if (deleted.statusCode !== 200) throw new Error(deleted.body);
    }
  } finally {
    await client.delete(`/api/workspace-delete/${REPO}`);
    await app.close();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
    repos.cleanup();
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `\nDeploy overhead, ${REPO} fixture (3 services, multi-stage build), median of ${ROUNDS} round(s)\n`,
  );
  console.log(
    '            bare (clone + compose up --build + first answer)   Slipway (start → Live)   ratio   overhead',
  );
  for (const [name, r] of Object.entries(results)) {
    const b = median(r.bare);
    const s = median(r.slipway);
    console.log(
      `  ${name.padEnd(8)}  ${seconds(b).padStart(10)}${' '.repeat(42)}${seconds(s).padStart(10)}${' '.repeat(13)}${(s / b).toFixed(2).padStart(5)}   ${seconds(s - b).padStart(8)}`,
    );
  }
  for (const [name, r] of Object.entries(results)) {
    printResult(
      `first deploy ÷ bare compose, ${name} (${REPO})`,
      `${(median(r.slipway) / median(r.bare)).toFixed(2)}×`,
      name === 'cold' ? '≤ 1.10×' : '≤ 1.25×',
      'not published by any peer',
    );
  }
  console.log('\nSlipway steps (median ms):');
  for (const [key, values] of Object.entries(stepTimes))
    console.log(`  ${key.padEnd(28)} ${String(median(values)).padStart(6)}`);
  console.log(
    '\nSlipway also checks the compose policy, writes limits and labels, verifies every service (a port-less one must stay up 1 s),' +
      '\nstores the build log and records the version; the bare path stops at the first HTTP answer of one service.',
  );
}

await main();
