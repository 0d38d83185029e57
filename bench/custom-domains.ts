/**
 * Custom domains (issue 29) with their real parts offline: pebble (an RFC 8555 CA), pebble-challtestsrv (the
 * DNS Slipway and pebble both ask), Caddy with on-demand TLS asking Slipway first. A small site is deployed;
 * then
 * 1. DOMAINS (20) domains are added, their records put in DNS, and Verify pressed for all at once: the time
 *    from Verify to the first HTTPS answer of the site at each domain, with a certificate pebble issued;
 * 2. FLOOD (1,000) TLS handshakes with random names (what anyone pointing names at the server can send):
 *    certificates ordered meanwhile (orders pebble received), and the permission endpoint's latency
 *    measured beside the flood from the flood's process (as Caddy, another process, asks it);
 * 3. REDEPLOYS (10) redeploys of the site with a client requesting it at a custom domain every 100 ms.
 * Run: `npx tsx bench/custom-domains.ts` (Docker Engine, busybox:1.36, caddy and pebble needed).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CustomDomain } from '@slipway/contract';
import { deployAndWait } from '../apps/server/src/test/deployments.js';
import { startAcmeWorld } from '../apps/server/src/test/fixtures/acmeWorld.js';
import { fetchThroughCaddy } from '../apps/server/src/test/fixtures/caddyProcess.js';
import { git } from '../apps/server/src/test/fixtures/fixtureRepos.js';
import { TestClient } from '../apps/server/src/test/testClient.js';
import { startEmbeddedApp } from './embeddedPlatform.js';
import { failedCount, startRequestLoop } from './lib/requestLoop.js';
import { mb, printResult } from './lib/result.js';

const DOMAINS = Number(process.env.DOMAINS ?? 20);
const FLOOD = Number(process.env.FLOOD ?? 1000);
const FLOOD_CONCURRENCY = 50;
const REDEPLOYS = Number(process.env.REDEPLOYS ?? 10);
const REPO = 'cd-site';
const execFileAsync = promisify(execFile);

const compose = (colour: string) => `services:
  web:
    image: busybox:1.36
    command: ["sh", "-c", "mkdir -p /www && echo '<h1>${colour}</h1>' > /www/index.html && exec httpd -f -p 8080 -h /www"]
    ports: ["8080"]
`;

function createRepo() {
  const root = mkdtempSync(path.join(tmpdir(), 'slipway-cd-repos-'));
  const dir = path.join(root, 'operator', REPO);
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'blue']);
  for (const branch of ['blue', 'green']) {
    git(dir, ['checkout', '-q', '-B', branch]);
    writeFileSync(path.join(dir, 'compose.yaml'), compose(branch));
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', branch]);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const repos = createRepo();
const world = await startAcmeWorld();
const ctx = await startEmbeddedApp({
  LOCAL_REPOS_DIR: repos.root,
  ...world.serverEnv,
  DEPLOY_HEALTH_TIMEOUT_SECONDS: '20',
});
try {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (ctx.app.server.address() as { port: number }).port;
  ctx.platform.listeningOn(port);
  await ctx.platform.runs.startWorkers();
  const client = await new TestClient(ctx.app).signIn('operator');
  const first = await deployAndWait(client, { repo: REPO, branch: 'blue' });
  if (first.status.error) throw new Error(`first deploy failed: ${first.status.error}`);
  const pebbleRoot = await world.pebble.issuingRoot();
  const httpsPort = world.caddy.httpsPort;
  const getAt = (domain: string) => () => fetchThroughCaddy(`https://${domain}:${httpsPort}/`, pebbleRoot);

  // 1. Verification → first HTTPS answer, for DOMAINS domains verified at once.
  const domains = Array.from(
    { length: DOMAINS },
    (_, i) => `site${i + 1}.bench-${randomBytes(3).toString('hex')}.test`,
  );
  for (const domain of domains) {
    const added = await client.post(`/api/workspace-domains/${REPO}`, { domain, service: 'web' });
    if (added.statusCode !== 201) throw new Error(`adding ${domain}: ${added.body}`);
    const { records } = added.json() as CustomDomain;
    for (const record of records) {
      if (record.type === 'TXT') await world.dns.setTxt(record.name, record.value);
    }
    await world.dns.addA(domain, ['127.0.0.1']);
  }
  const verifyToAnswer = await Promise.all(
    domains.map(async (domain) => {
      const started = performance.now();
      const verified = await client.post(`/api/workspace-domains/${REPO}/${domain}/verify`);
      if (verified.statusCode !== 200) throw new Error(`verifying ${domain}: ${verified.body}`);
      for (;;) {
        const answer = await getAt(domain)().catch(() => ({ status: 0, body: '' }));
        if (answer.status === 200 && answer.body.includes('blue')) return performance.now() - started;
        if (performance.now() - started > 180_000) return Number.POSITIVE_INFINITY;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }),
  );
  const listed = (await client.get(`/api/workspace-domains/${REPO}`)).json() as CustomDomain[];
  const active = listed.filter((domain) => domain.status === 'active').length;
  console.log(
    `${DOMAINS} domains: Verify → first HTTPS answer p50 ${seconds(percentile(verifyToAnswer, 50))}, p95 ${seconds(percentile(verifyToAnswer, 95))}, max ${seconds(Math.max(...verifyToAnswer))}; ${active} listed Active`,
  );

  // 2. A flood of random names, with the permission endpoint timed beside it.
  const ordersBefore = world.pebble.orderCount();
  // The question timed from a third process while the flood runs: as Caddy, another process, asks it.
  const timer = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'lib', 'permissionTimer.ts'),
      `http://127.0.0.1:${port}/api/tls/permission`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let timerOutput = '';
  timer.stdout.on('data', (chunk) => {
    timerOutput += chunk;
  });
  const timerDone = new Promise((resolve) => timer.once('exit', resolve));
  const floodStarted = performance.now();
  const flood = await execFileAsync(process.execPath, [
    '--import',
    'tsx',
    path.join(import.meta.dirname, 'lib', 'sniFlood.ts'),
    String(httpsPort),
    String(FLOOD),
    String(FLOOD_CONCURRENCY),
  ]);
  timer.stdin.end();
  await timerDone;
  const { served } = JSON.parse(flood.stdout) as { served: number };
  const { latencies, refused } = JSON.parse(timerOutput) as { latencies: number[]; refused: number };
  if (refused !== latencies.length) {
    throw new Error(`the permission endpoint allowed ${latencies.length - refused} random names`);
  }
  const floodMs = performance.now() - floodStarted;
  const ordered = world.pebble.orderCount() - ordersBefore;
  console.log(
    `flood of ${FLOOD} random names in ${seconds(floodMs)}: ${served} handshakes got a certificate, ${ordered} certificates ordered; permission endpoint p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms over ${latencies.length} questions`,
  );

  // 3. Redeploys with traffic on a custom domain.
  const loop = startRequestLoop(getAt(domains[0]!));
  for (let round = 1; round <= REDEPLOYS; round++) {
    const branch = round % 2 === 1 ? 'green' : 'blue';
    const { status } = await deployAndWait(client, { repo: REPO, branch, workflowType: 'redeploy' });
    console.log(
      `  redeploy ${String(round).padStart(2)} → ${branch.padEnd(5)} ${status.error ?? 'Live'}; failed so far ${failedCount(loop.tally)}`,
    );
  }
  const tally = await loop.stop();
  console.log(
    `${REDEPLOYS} redeploys: ${tally.sent} requests at ${domains[0]}, ${failedCount(tally)} failed ${JSON.stringify(tally.failed)}; pages seen ${[...tally.bodies].join(' ')}; server RSS ${mb(process.memoryUsage().rss)}`,
  );

  printResult(
    `custom domain: Verify → first HTTPS answer, p95 over ${DOMAINS}`,
    seconds(percentile(verifyToAnswer, 95)),
    '< 60 s',
    'Coolify/CapRover: correct DNS reported wrong (coolify#2151, caprover#523)',
  );
  printResult(
    `certificates ordered under ${FLOOD} random SNI names`,
    String(ordered),
    '0',
    'coder#29269: allow-all ask',
  );
  printResult(
    'permission endpoint p99 during the flood',
    `${percentile(latencies, 99).toFixed(1)} ms`,
    '< 10 ms',
  );
  printResult(
    `${REDEPLOYS} redeploys, requests failed at a custom domain`,
    `${failedCount(tally)} of ${tally.sent}`,
    '0',
  );
} finally {
  const client = await new TestClient(ctx.app).signIn('operator');
  await client.delete(`/api/workspace-delete/${REPO}`).catch(() => {});
  await ctx.close();
  await world.stop();
  repos.cleanup();
}
