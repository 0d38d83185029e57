/**
 * Crash alerts (issue 16): a busybox service labelled as Slipway labels a workspace's containers, watched by
 * the real health monitor of a real platform (PGlite, the real Docker Engine), crashed CRASHES times (default
 * 20): each round starts a fresh container (its own service, so each crash is a first crash rather than a
 * restart loop), sends it SIGTERM (its shell traps it and exits with code 3) and waits for the alert email
 * on a loopback SMTP server. Latency = engine's finish time of the container → mail received.
 * Prints p50/p95 and `RESULT` lines for `npm run bench`. Goal: p95 < 15 s.
 * Run: `npx tsx bench/crash-alerts.ts` (Docker Engine and the offline busybox:1.36 image needed).
 */
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { composeProjectName, LABELS } from '../apps/server/src/infra/docker/conventions.js';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  TEST_IMAGE,
  testDocker,
  waitUntil,
} from '../apps/server/src/test/runningWorkspaces.js';
import { startLoopbackSmtp } from '../apps/server/src/test/smtp.js';
import { startEmbeddedPlatform } from './embeddedPlatform.js';

const CRASHES = Number(process.env.CRASHES ?? 20);
const GOAL_MS = 15_000;
const PEER = 'Coolify ~60 s; Dokploy none';
/** Runs until SIGTERM, then "crashes" with exit code 3 after printing why. */
const SERVICE = [
  'echo "worker ready";',
  'trap \'echo "fatal: lost connection to queue" >&2; exit 3\' TERM;',
  'while true; do sleep 0.1; done',
].join(' ');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const docker = testDocker();
  const smtp = await startLoopbackSmtp();
  const ctx = await startEmbeddedPlatform({
    SMTP_URL: smtp.url,
    // The default poll (30 s): what the bench measures is the event path, with the poll as the safety net.
    HEALTH_CHECK_INTERVAL_MS: process.env.HEALTH_CHECK_INTERVAL_MS ?? '30000',
  });
  const workspace = await insertWorkspace(ctx.platform, { userId: ctx.userId });
  const to = `${workspace.name}@example.com`;
  await ctx.platform.runningApps.alertConfigs.save(ctx.userId, workspace.name, {
    global_enabled: true,
    rules: [],
    sinks: [{ sink_type: 'email', enabled: true, config: { to_email: to } }],
  });
  await ctx.platform.runningApps.start();
  const monitor = ctx.platform.runningApps.healthMonitor as {
    watchedEngines?: number;
    checkAll(): Promise<void>;
  };
  await monitor.checkAll();
  if (monitor.watchedEngines !== undefined) {
    await waitUntil(() => (monitor.watchedEngines ?? 0) > 0, 10_000, 'the event stream');
  }

  const latencies: number[] = [];
  try {
    for (let round = 1; round <= CRASHES; round++) {
      const service = `worker-${round}`;
      const container: Docker.Container = await docker.createContainer({
        name: `${composeProjectName(workspace.id)}-${service}-${randomBytes(2).toString('hex')}`,
        Image: TEST_IMAGE,
        Cmd: ['sh', '-c', SERVICE],
        Labels: {
          [LABELS.workspaceId]: workspace.id,
          [LABELS.userId]: workspace.userId,
          [LABELS.composeProject]: composeProjectName(workspace.id),
          [LABELS.composeService]: service,
        },
      });
      await container.start();
      await container.kill({ signal: 'SIGTERM' });
      await container.wait();
      const mail = await smtp.waitFor(
        (m) => m.to.includes(to) && m.subject.includes(`Service ${service} `),
        120_000,
      );
      const receivedAt = Date.now();
      const finishedAt = new Date((await container.inspect()).State.FinishedAt).getTime();
      const latency = receivedAt - finishedAt;
      latencies.push(latency);
      const exit = /exit code (\d+)/.exec(mail.text)?.[1] ?? '?';
      console.log(
        `crash ${String(round).padStart(2)}: alert mailed after ${seconds(latency)} (${mail.subject}; exit code ${exit}; log lines ${mail.text.includes('fatal: lost connection') ? 'included' : 'missing'})`,
      );
    }
  } finally {
    await ctx.platform.runningApps.stop();
    await removeWorkspaceContainers(docker, workspace.id);
    await ctx.close();
    await smtp.close();
  }
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  console.log(
    `crash → alert mailed over ${latencies.length} crashes: p50 ${seconds(p50)}, p95 ${seconds(p95)} (goal p95 < ${seconds(GOAL_MS)})`,
  );
  console.log(`RESULT\tcrash → alert sent p50\t${seconds(p50)}\t< 15 s p95\t${PEER}`);
  console.log(`RESULT\tcrash → alert sent p95\t${seconds(p95)}\t< 15 s\t${PEER}`);
}

await main();
