/**
 * Zero-downtime redeploys (issue 15): a three-service app (web with a page, an API only its neighbours reach,
 * a worker) is deployed, then a client requests its public URL every 100 ms while the app is redeployed
 * REDEPLOYS times (default 20) alternating two branches whose pages differ, then once to a branch whose web
 * service never answers (its verification fails), then rolled back to its oldest kept revision. Prints requests
 * sent and failed (by kind), each redeploy's time, whether the URL stayed the same, whether the last good
 * version serves after the failed one, the rollback time (click to Live) and the process's memory.
 * MODE=caddy goes through a real Caddy (HTTPS, the production ingress), MODE=direct through the host port
 * (embedded defaults); both by default. Goal with Caddy: 0 failed.
 * Run: `npx tsx bench/zero-downtime.ts` (Docker Engine, busybox:1.36 and caddy needed).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkflowStatus, WorkspaceRevisions } from '@slipway/contract';
import { deployAndWait, loopback } from '../apps/server/src/test/deployments.js';
import { fetchThroughCaddy, startCaddy } from '../apps/server/src/test/fixtures/caddyProcess.js';
import { git } from '../apps/server/src/test/fixtures/fixtureRepos.js';
import { TestClient } from '../apps/server/src/test/testClient.js';
import { startEmbeddedApp } from './embeddedPlatform.js';
import { failedCount, startRequestLoop } from './lib/requestLoop.js';
import { mb, printResult } from './lib/result.js';

const REDEPLOYS = Number(process.env.REDEPLOYS ?? 20);
const MODES = (process.env.MODE ?? 'direct,caddy').split(',') as ('direct' | 'caddy')[];
const REPO = 'zd-shop';

const compose = (webCommand: string) => `services:
  web:
    image: busybox:1.36
    command: ["sh", "-c", ${JSON.stringify(webCommand)}]
    ports: ["8080"]
  api:
    image: busybox:1.36
    command: ["sh", "-c", "mkdir -p /www && echo api > /www/index.html && exec httpd -f -p 9000 -h /www"]
    expose: ["9000"]
  worker:
    image: busybox:1.36
    command: ["sh", "-c", "while true; do sleep 1; done"]
`;
const page = (colour: string) =>
  `mkdir -p /www && echo '<h1>${colour}</h1>' > /www/index.html && exec httpd -f -p 8080 -h /www`;

/** One repository with three branches: blue and green pages, and a broken web service that never listens. */
function createRepo() {
  const root = mkdtempSync(path.join(tmpdir(), 'slipway-zd-repos-'));
  const dir = path.join(root, 'operator', REPO);
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'blue']);
  const commit = (branch: string, webCommand: string) => {
    git(dir, ['checkout', '-q', '-B', branch]);
    writeFileSync(path.join(dir, 'compose.yaml'), compose(webCommand));
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', branch]);
  };
  commit('blue', page('blue'));
  commit('green', page('green'));
  commit('broken', 'echo starting; exec sleep 3600');
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Rolls back to the oldest kept revision through the API and waits until it is Live (or failed). */
async function rollBack(client: TestClient) {
  const listed = (await client.get(`/api/workspace-revisions/${REPO}`)).json() as WorkspaceRevisions;
  const target = listed.revisions.filter((revision) => revision.can_roll_back).at(-1);
  if (!target) return { to: 'none', ms: 0, error: 'no kept revision' };
  const sessionId = randomUUID();
  const started = performance.now();
  const response = await client.post(`/api/workspace-rollback/${REPO}/${target.deployment_id}`, {
    sessionId,
  });
  if (response.statusCode !== 200) return { to: target.deployment_id, ms: 0, error: response.body };
  for (;;) {
    const status = (
      await client.get(`/api/workflow/deployment/status/${sessionId}`)
    ).json() as WorkflowStatus;
    if (status.state !== 'started') {
      return { to: target.deployment_id, ms: performance.now() - started, error: status.error };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runMode(mode: 'direct' | 'caddy') {
  const repos = createRepo();
  const caddy = mode === 'caddy' ? await startCaddy() : undefined;
  let ctx: Awaited<ReturnType<typeof startEmbeddedApp>> | undefined;
  try {
    ctx = await startEmbeddedApp({
      LOCAL_REPOS_DIR: repos.root,
      ...(caddy ? { CADDY_ADMIN_URL: caddy.adminUrl, INGRESS_HTTPS_PORT: String(caddy.httpsPort) } : {}),
      DEPLOY_HEALTH_TIMEOUT_SECONDS: '20',
    });
    await ctx.platform.runs.startWorkers();
    const client = await new TestClient(ctx.app).signIn('operator');
    const first = await deployAndWait(client, { repo: REPO, branch: 'blue' });
    if (first.status.error) throw new Error(`first deploy failed: ${first.status.error}`);
    const url = first.status.data.deploymentData.metadata.urls.web!;
    const get = caddy
      ? () => fetchThroughCaddy(url, caddy.rootCertificate())
      : async () => {
          const response = await fetch(loopback(url));
          return { status: response.status, body: await response.text() };
        };
    // Wait for the first answer (Caddy issues its certificate on the first handshake).
    for (let i = 0; i < 100 && (await get().catch(() => ({ status: 0 }))).status !== 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 200));

    const clientLoop = startRequestLoop(get);
    const times: number[] = [];
    const urls = new Set([url]);
    for (let round = 1; round <= REDEPLOYS; round++) {
      const branch = round % 2 === 1 ? 'green' : 'blue';
      const started = performance.now();
      const { status } = await deployAndWait(client, { repo: REPO, branch, workflowType: 'redeploy' });
      times.push(performance.now() - started);
      if (status.error) console.log(`  redeploy ${round} (${branch}) failed: ${status.error}`);
      else urls.add(status.data.deploymentData.metadata.urls.web!);
      console.log(
        `  redeploy ${String(round).padStart(2)} → ${branch.padEnd(5)} ${(times.at(-1)! / 1000).toFixed(1)} s; failed so far ${Object.values(clientLoop.tally.failed).reduce((a, b) => a + b, 0)}`,
      );
    }
    const total = failedCount;
    const duringGood = { sent: clientLoop.tally.sent, failed: total(clientLoop.tally) };
    const lastGood = REDEPLOYS % 2 === 1 ? 'green' : 'blue';
    const broken = await deployAndWait(client, { repo: REPO, branch: 'broken', workflowType: 'redeploy' });
    console.log(`  redeploy of 'broken': ${broken.status.state} (${broken.status.error ?? 'no error'})`);
    // Five more seconds of traffic: does the last good version still serve?
    const afterBroken = clientLoop.tally.sent;
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const lastAnswer = await get().catch((error: Error) => ({ status: 0, body: error.message }));
    // One-click rollback to the oldest kept revision, under the same traffic: click → Live.
    const rollback = await rollBack(client);
    const afterRollback = await get().catch((error: Error) => ({ status: 0, body: error.message }));
    const tally = await clientLoop.stop();
    const failed = total(tally);
    const rss = process.memoryUsage().rss;
    times.sort((a, b) => a - b);
    console.log(
      `\n${mode}: ${duringGood.sent} requests during ${REDEPLOYS} redeploys, ${duringGood.failed} failed; with the failed redeploy ${tally.sent} requests, ${failed} failed ${JSON.stringify(tally.failed)}; slowest answer ${(tally.slowestMs / 1000).toFixed(2)} s`,
    );
    console.log(
      `  redeploy time median ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(1)} s, max ${(times.at(-1)! / 1000).toFixed(1)} s; URL the same throughout: ${urls.size === 1 ? 'yes' : `no (${[...urls].join(', ')})`}`,
    );
    console.log(
      `  after the failed redeploy (${tally.sent - afterBroken} requests): the site answers ${lastAnswer.status} ${lastAnswer.body.trim()} (last good: <h1>${lastGood}</h1>)`,
    );
    console.log(
      `  rollback to the revision of ${rollback.to.slice(0, 8)}: ${rollback.error ?? 'Live'} in ${(rollback.ms / 1000).toFixed(1)} s; the site then answers ${afterRollback.status} ${afterRollback.body.trim()}`,
    );
    console.log(`  server process RSS ${mb(rss)}`);
    printResult(
      `${REDEPLOYS} redeploys under traffic (${mode}), requests failed`,
      `${duringGood.failed} of ${duringGood.sent}`,
      mode === 'caddy' ? '0' : 'gap of a few s per redeploy',
      'Dokploy/Coolify/CapRover: Compose apps down during redeploy',
    );
    printResult(`… and one failed redeploy (${mode}), requests failed`, `${failed} of ${tally.sent}`, '0');
    printResult(
      `failed redeploy (${mode}), previous version serving`,
      lastAnswer.status === 200 && lastAnswer.body.includes(lastGood) ? 'yes' : 'no',
      'yes',
    );
    printResult(
      `rollback (${mode}), click to Live`,
      rollback.error ? `failed: ${rollback.error}` : `${(rollback.ms / 1000).toFixed(1)} s`,
      '< 10 s',
    );
    printResult(
      `redeploy (${mode}), median time`,
      `${(times[Math.floor(times.length / 2)]! / 1000).toFixed(1)} s`,
    );
  } finally {
    if (ctx) {
      const client = await new TestClient(ctx.app).signIn('operator');
      await client.delete(`/api/workspace-delete/${REPO}`).catch(() => {});
      await ctx.close();
    }
    await caddy?.stop();
    repos.cleanup();
  }
}

for (const mode of MODES) await runMode(mode);
