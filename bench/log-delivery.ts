/**
 * Log delivery: how long a line takes from a container's stdout to an SSE viewer, and what 200 viewers of
 * one workspace cost the server. Run: `npx tsx bench/log-delivery.ts` (Docker Engine and busybox:1.36 needed).
 *
 * The delay is measured against the Docker Engine's own timestamp of the line (when the engine read it
 * from the container), which the stream carries as its first field; both clocks are this machine's.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  removeWorkspaceContainers,
  runServiceContainer,
  testDocker,
} from '../apps/server/src/test/runningWorkspaces.js';
import { printResult } from './lib/result.js';

const VIEWERS = Number(process.env.VIEWERS ?? 200);
const LINES = Number(process.env.LINES ?? 200);
const INTERVAL_US = 50_000;

const server = spawn(
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL('./log-delivery-server.ts', import.meta.url))],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  },
);
const replies = createInterface({ input: server.stdout! })[Symbol.asyncIterator]();
const nextReply = async <T>() => JSON.parse(String((await replies.next()).value)) as T;
const rss = async () => {
  server.stdin!.write('rss\n');
  return (await nextReply<{ rss: number }>()).rss;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const ready = await nextReply<{
  port: number;
  cookie: string;
  workspaceId: string;
  userId: string;
  workspaceName: string;
}>();
const base = `http://127.0.0.1:${ready.port}`;
const docker = testDocker();
const workspace = { id: ready.workspaceId, userId: ready.userId };

try {
  const idleRss = await rss();
  const delays: number[] = [];
  const received = new Array<number>(VIEWERS).fill(0);
  const viewers = await Promise.all(
    Array.from({ length: VIEWERS }, async (_, index) => {
      const response = await fetch(
        `${base}/api/workspace-logs-stream/${ready.workspaceName}?follow=true&initial_lines=0`,
        {
          headers: { cookie: ready.cookie },
        },
      );
      if (response.status !== 200) throw new Error(`viewer ${index}: HTTP ${response.status}`);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let carry = '';
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          const now = Date.now();
          carry += decoder.decode(value, { stream: true });
          const events = carry.split('\n\n');
          carry = events.pop() ?? '';
          for (const event of events) {
            if (!event.startsWith('data: ')) continue;
            const timestamp = event.slice(6).split('\t')[0]!;
            delays.push(now - new Date(timestamp).getTime());
            received[index]! += 1;
          }
        }
      })();
      return reader;
    }),
  );
  const connectedRss = await rss();

  const started = Date.now();
  await runServiceContainer(
    docker,
    workspace,
    'ticker',
    `i=0; while [ $i -lt ${LINES} ]; do echo "tick $i <b>html stays text</b>"; i=$((i+1)); usleep ${INTERVAL_US}; done; sleep 3600`,
  );
  let peakRss = connectedRss;
  const deadline = Date.now() + (LINES * INTERVAL_US) / 1000 + 30_000;
  while (received.some((count) => count < LINES) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    peakRss = Math.max(peakRss, await rss());
  }
  const elapsed = (Date.now() - started) / 1000;
  for (const reader of viewers) await reader.cancel().catch(() => {});

  const sorted = delays.sort((a, b) => a - b);
  const complete = received.filter((count) => count >= LINES).length;
  console.log(
    `log delivery: ${LINES} lines at ${1_000_000 / INTERVAL_US}/s, ${VIEWERS} concurrent viewers of one workspace`,
  );
  console.log(
    `  viewers that got every line: ${complete}/${VIEWERS} (${delays.length} deliveries in ${elapsed.toFixed(1)} s)`,
  );
  console.log(
    `  delay container -> browser: p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1)} ms`,
  );
  console.log(
    `  server RSS: idle ${mb(idleRss)}, ${VIEWERS} viewers connected ${mb(connectedRss)}, peak while streaming ${mb(peakRss)}`,
  );
  printResult(`log line delay container → viewer, p99 (${VIEWERS} viewers)`, `${percentile(sorted, 99)} ms`);
  printResult(`server RSS growth with ${VIEWERS} log viewers streaming`, mb(peakRss - idleRss), 'flat');
  console.log(
    `  docker log followers for the workspace: 1 per container (viewers read pub/sub, not the engine)`,
  );
} finally {
  await removeWorkspaceContainers(docker, workspace.id);
  server.stdin!.write('stop\n');
  await new Promise((resolve) => server.once('exit', resolve));
}
