/**
 * Preview deployments (issue 31), in local mode on the real engine: a small site is deployed, previews are turned
 * on, and
 * 1. ROUNDS (10) rounds, each a first deployment of the same app in a fresh workspace and then a pull request
 *    opened (a `pr/{n}` branch with a page of its own): the time from the branch's creation to the preview
 *    answering its page, p95 against the first deployments' p95 (interleaved, so both meet the same load);
 * 2. CYCLES (100) pull requests are opened and closed (the branch deleted once its preview is deploying, so
 *    removal meets a deployment in flight): afterwards, what of any preview is left — containers, networks,
 *    volumes, images on the engine; workspace, deployment, preview and log rows in the database — and the
 *    server process's memory before and after.
 * Run: `npx tsx --expose-gc bench/previews.ts` (Docker Engine and busybox:1.36 needed; --expose-gc so the memory
 * figure is read after a collection).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Preview, previewWorkspaceName } from '@slipway/contract';
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { deployments, logChunks, previews, workspaces } from '../apps/server/src/infra/db/schema.js';
import { composeProjectName } from '../apps/server/src/infra/docker/conventions.js';
import { listWorkspaceImages } from '../apps/server/src/infra/docker/projectResources.js';
import { deployAndWait, docker, loopback } from '../apps/server/src/test/deployments.js';
import { git } from '../apps/server/src/test/fixtures/fixtureRepos.js';
import { TestClient } from '../apps/server/src/test/testClient.js';
import { startEmbeddedApp } from './embeddedPlatform.js';
import { mb, median, printResult } from './lib/result.js';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const CYCLES = Number(process.env.CYCLES ?? 100);
const REPO = 'pv-site';

const dockerfile = (page: string) =>
  `FROM busybox:1.36\nRUN mkdir -p /www && echo '${page}' > /www/index.html\nEXPOSE 8080\nCMD ["httpd", "-f", "-p", "8080", "-h", "/www"]\n`;
const COMPOSE = 'services:\n  web:\n    build: .\n    ports: ["8080"]\n';

const root = mkdtempSync(path.join(tmpdir(), 'slipway-pv-repos-'));
function makeRepo(name: string) {
  const dir = path.join(root, 'operator', name);
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  writeFileSync(path.join(dir, 'compose.yaml'), COMPOSE);
  writeFileSync(path.join(dir, 'Dockerfile'), dockerfile(`${name} main`));
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'main']);
  return dir;
}
const siteDir = makeRepo(REPO);
const openPullRequest = (number: number, page: string) => {
  git(siteDir, ['checkout', '-q', '-B', `pr/${number}`]);
  writeFileSync(path.join(siteDir, 'Dockerfile'), dockerfile(page));
  git(siteDir, ['commit', '-q', '-am', page]);
  git(siteDir, ['checkout', '-q', 'main']);
};
const closePullRequest = (number: number) => git(siteDir, ['branch', '-q', '-D', `pr/${number}`]);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Where the time of one run went: the moments it passed, in epoch milliseconds, in order. */
type Moments = Record<string, number>;
/** The median of each gap between consecutive moments, over the runs: "a → b 0.4 s, …". */
function breakdown(runs: Moments[]): string {
  const names = Object.keys(runs[0] ?? {});
  return names
    .slice(1)
    .map((name, i) => {
      const gaps = runs.map((run) => (run[name] ?? Number.NaN) - (run[names[i]!] ?? Number.NaN));
      return `${names[i]} → ${name} ${seconds(median(gaps))}`;
    })
    .join(', ');
}
/** The moments of a deployment row: enqueued, picked up by a worker, each step's end, finished. */
function deploymentMoments(row: typeof deployments.$inferSelect): Moments {
  const moments: Moments = { enqueued: row.createdAt.getTime() };
  if (row.startedAt) moments.started = row.startedAt.getTime();
  for (const step of row.steps) if (step.finishedAt) moments[step.name] = Date.parse(step.finishedAt);
  if (row.finishedAt) moments.finished = row.finishedAt.getTime();
  return moments;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, withinMs = 240_000) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ctx = await startEmbeddedApp({ LOCAL_REPOS_DIR: root, DEPLOY_HEALTH_TIMEOUT_SECONDS: '30' });
try {
  await ctx.platform.runs.startWorkers();
  const client = await new TestClient(ctx.app).signIn('operator');
  const listed = async () => (await client.get(`/api/workspace-previews/${REPO}`)).json() as Preview[];

  const db = ctx.platform.db;
  const latestDeployment = async (workspaceName: string) =>
    (
      await db
        .select()
        .from(deployments)
        .where(eq(deployments.workspaceName, workspaceName))
        .orderBy(desc(deployments.createdAt))
        .limit(1)
    )[0]!;

  /** A first deployment of the same app in a fresh workspace (`name`), timed from the ask to the answer. */
  const firstDeploys: number[] = [];
  const firstMoments: Moments[] = [];
  async function firstDeployment(name: string, counted = true) {
    const started = performance.now();
    const asked = Date.now();
    const first = await deployAndWait(client, { repo: name, branch: 'main' });
    if (first.status.error) throw new Error(`first deploy of ${name} failed: ${first.status.error}`);
    if (!counted) return;
    firstDeploys.push(performance.now() - started);
    firstMoments.push({ asked, ...deploymentMoments(await latestDeployment(name)), seen: Date.now() });
  }
  // The pull requests' own workspace, deployed before the rounds (not one of the interleaved samples).
  await firstDeployment(REPO, false);
  const enabled = await client.put(`/api/workspace-preview-settings/${REPO}`, {
    enabled: true,
    max_running: 20,
  });
  if (enabled.statusCode !== 200) throw new Error(`turning previews on: ${enabled.body}`);
  ctx.platform.previews.start();

  // 1. Opened → the preview answers its own page; each round also times a first deployment of the same app in a
  // fresh workspace, so both are measured under the same load on this shared machine.
  const openToAnswer: number[] = [];
  const previewMoments: Moments[] = [];
  for (let number = 1; number <= ROUNDS; number++) {
    const firstName = `pv-first-${number}`;
    makeRepo(firstName);
    await firstDeployment(firstName);
    await client.delete(`/api/workspace-delete/${firstName}`);
    const page = `preview ${number}`;
    const started = performance.now();
    const opened = Date.now();
    openPullRequest(number, page);
    let seenLive = 0;
    await until(`preview ${number} answering`, async () => {
      const preview = (await listed()).find((p) => p.number === number);
      const url = preview?.state === 'live' ? preview.urls.web : undefined;
      if (!url) return false;
      seenLive ||= Date.now();
      const body = await fetch(loopback(url))
        .then((response) => response.text())
        .catch(() => '');
      return body.includes(page);
    });
    openToAnswer.push(performance.now() - started);
    const answered = Date.now();
    const [row] = await db
      .select()
      .from(previews)
      .where(and(eq(previews.number, number), isNotNull(previews.parentId)));
    previewMoments.push({
      opened,
      recorded: row!.createdAt.getTime(),
      ...deploymentMoments(await latestDeployment(previewWorkspaceName(REPO, number))),
      live: seenLive,
      answered,
    });
    closePullRequest(number);
    await until(`preview ${number} removed`, async () => !(await listed()).some((p) => p.number === number));
  }
  const previewP95 = percentile(openToAnswer, 95);
  const firstP95 = percentile(firstDeploys, 95);
  console.log(
    `opened → preview answering: p50 ${seconds(percentile(openToAnswer, 50))}, p95 ${seconds(previewP95)} (${openToAnswer.map(seconds).join(', ')}); first deployment of the same app: p50 ${seconds(median(firstDeploys))}, p95 ${seconds(firstP95)} (${firstDeploys.map(seconds).join(', ')}); p95 ÷ the first deployments' median: ${(previewP95 / median(firstDeploys)).toFixed(2)}×`,
  );

  console.log(`  where a first deployment's time goes (medians): ${breakdown(firstMoments)}`);
  console.log(`  where a preview's time goes (medians): ${breakdown(previewMoments)}`);

  // 2. Open/close cycles, each closed while its preview is deploying.
  const previewIds = new Set<string>();
  const rssBefore = process.memoryUsage().rss;
  const cyclesStarted = performance.now();
  for (let i = 1; i <= CYCLES; i++) {
    const number = 1000 + i;
    openPullRequest(number, `cycle ${i}`);
    const preview = await until(`preview ${number} deploying`, async () =>
      (await listed()).find((p) => p.number === number && ['deploying', 'live', 'failed'].includes(p.state)),
    );
    const row = (await db.select().from(workspaces).where(eq(workspaces.name, preview.workspace)))[0];
    if (row) previewIds.add(row.id);
    closePullRequest(number);
    if (i % 10 === 0)
      console.log(`  ${i} of ${CYCLES} cycles, ${seconds(performance.now() - cyclesStarted)}`);
  }
  await until('every cycle removed', async () => (await listed()).length === 0, 600_000);
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;

  const ids = [...previewIds];
  let engineLeft = 0;
  for (const id of ids) {
    const project = composeProjectName(id);
    const [containers, networks, volumes, images] = await Promise.all([
      docker.listContainers({ all: true, filters: { label: [`com.docker.compose.project=${project}`] } }),
      docker.listNetworks({ filters: { name: [project] } }),
      docker.listVolumes({ filters: { name: [project] } }),
      listWorkspaceImages(docker, id),
    ]);
    engineLeft += containers.length + networks.length + (volumes.Volumes ?? []).length + images.length;
  }
  const previewWorkspaces = await db.select().from(workspaces).where(isNotNull(workspaces.previewOf));
  const previewRows = await db.select().from(previews);
  const deploymentRows = ids.length
    ? await db.select().from(deployments).where(inArray(deployments.workspaceId, ids))
    : [];
  const previewNames = [
    ...Array.from({ length: ROUNDS }, (_, i) => previewWorkspaceName(REPO, i + 1)),
    ...Array.from({ length: CYCLES }, (_, i) => previewWorkspaceName(REPO, 1001 + i)),
  ];
  const logRows = await db
    .select({ name: logChunks.workspaceName })
    .from(logChunks)
    .where(inArray(logChunks.workspaceName, previewNames));
  const rowsLeft = previewWorkspaces.length + previewRows.length + deploymentRows.length + logRows.length;
  console.log(
    `${CYCLES} open/close cycles in ${seconds(performance.now() - cyclesStarted)}: ${ids.length} preview workspaces made; left on the engine ${engineLeft}, rows left ${rowsLeft} (workspaces ${previewWorkspaces.length}, previews ${previewRows.length}, deployments ${deploymentRows.length}, logs ${logRows.length}); RSS ${mb(rssBefore)} → ${mb(rssAfter)}`,
  );

  printResult(
    'pull request opened → preview answering, p95 ÷ first deployment p95 (interleaved rounds)',
    `${(previewP95 / firstP95).toFixed(2)}× (${seconds(previewP95)} ÷ ${seconds(firstP95)})`,
    '≤ 1.2×',
    'Coolify/Dokploy: previews built from the wrong branch (coolify#5151, Dokploy#1175)',
  );
  printResult(
    `leftovers after ${CYCLES} open/close cycles`,
    `${engineLeft + rowsLeft}`,
    '0',
    'Coolify: previews left running after close (coolify#2485, #4821)',
  );
  printResult(`server memory over ${CYCLES} cycles`, `${mb(rssBefore)} → ${mb(rssAfter)}`, 'flat');
} finally {
  await ctx.platform.previews.stop();
  const client = await new TestClient(ctx.app).signIn('operator');
  await client.delete(`/api/workspace-delete/${REPO}`).catch(() => {});
  await ctx.close();
  rmSync(root, { recursive: true, force: true });
}
