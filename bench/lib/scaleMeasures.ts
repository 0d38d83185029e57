/**
 * The scale bench's measures of a running control plane, each taken from outside its processes: memory and CPU
 * from /proc, the workspace list's latency over HTTP, crash → alert through a real SMTP server.
 */
import type Docker from 'dockerode';
import type { LoopbackSmtp } from '../../apps/server/src/test/smtp.js';
import { percentile } from './result.js';
import type { FleetContainer } from './scaleFleet.js';
import { cpuSecondsOf } from './slipwayCluster.js';
import { rssOf } from './slipwayProcess.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The summed RSS of the server processes, in bytes. */
export const serverRss = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + rssOf(pid), 0);

/** The server processes' CPU over `seconds`, as a percentage of one core (summed over the processes). */
export async function idleCpuPercent(pids: readonly number[], seconds: number): Promise<number> {
  const cpu = () => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const before = cpu();
  const started = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  return ((cpu() - before) / elapsed) * 100;
}

/** `count` requests of GET /api/user-workspaces, one after the other, across the replicas: p50 and p99 (ms). */
export async function workspaceListLatency(
  bases: readonly string[],
  headers: Record<string, string>,
  count: number,
  expected: number,
) {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const response = await fetch(`${bases[index % bases.length]}/api/user-workspaces`, { headers });
    const list = (await response.json()) as unknown[];
    times.push(performance.now() - started);
    if (response.status !== 200 || list.length < expected) {
      throw new Error(
        `GET /api/user-workspaces: ${response.status}, ${list.length} workspaces of ${expected}`,
      );
    }
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * Kills (SIGKILL, as `docker kill`) the container of each victim in turn and waits for its crash alert at the
 * SMTP server: latency = the engine's finish time of the container → mail received. Then starts the container
 * again and waits for the "Resolved" mail, so the next crash finds a quiet control plane.
 */
export async function crashToAlert(docker: Docker, smtp: LoopbackSmtp, victims: readonly FleetContainer[]) {
  const latencies: number[] = [];
  for (const victim of victims) {
    const to = `${victim.workspaceName}@example.com`;
    const container = docker.getContainer(victim.id);
    const seen = smtp.messages.length;
    const fresh = (predicate: (subject: string) => boolean) => (mail: (typeof smtp.messages)[number]) =>
      smtp.messages.indexOf(mail) >= seen && mail.to.includes(to) && predicate(mail.subject);
    await container.kill();
    await smtp.waitFor(
      fresh((subject) => !subject.includes('Resolved:')),
      60_000,
    );
    const receivedAt = Date.now();
    const finishedAt = Date.parse((await container.inspect()).State.FinishedAt);
    latencies.push(receivedAt - finishedAt);
    await container.start();
    await smtp
      .waitFor(
        fresh((subject) => subject.includes('Resolved:')),
        30_000,
      )
      .catch(() => console.warn(`  ${victim.workspaceName}: no "Resolved" mail within 30 s of its restart`));
  }
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: Math.max(...latencies),
  };
}

/** Picks `count` of `items` at random, without repeats. */
export function pickRandom<T>(items: readonly T[], count: number): T[] {
  const pool = [...items];
  for (let index = pool.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [pool[index], pool[other]] = [pool[other]!, pool[index]!];
  }
  return pool.slice(0, count);
}
