/**
 * Log viewers at scale: V browsers each following one workspace's log stream over SSE
 * (GET /api/workspace-logs-stream/{name}), spread over a few writing workspaces and over the replicas, while
 * those workspaces' containers write lines. The delay of each delivery is measured against the Docker Engine's
 * timestamp of the line (when the engine read it from the container), which the stream carries as its first
 * field, as bench/log-delivery.ts does; both clocks are this machine's.
 */
import type Docker from 'dockerode';
import { percentile } from './result.js';
import type { FleetContainer } from './scaleFleet.js';
import { serverRss, sleep } from './scaleMeasures.js';

export interface ViewerRun {
  viewers: number;
  writers: number;
  linesEach: number;
  /** Viewers that received every line written to the workspace they follow. */
  complete: number;
  deliveries: number;
  p50: number;
  p99: number;
  max: number;
  /** Server RSS (summed over the replicas) before the viewers connected, once connected, and its peak while streaming. */
  rss: { before: number; connected: number; peak: number };
}

/** Follows `path` on `base` until cancelled, calling `onLine` with each data line's engine timestamp. */
async function follow(
  base: string,
  path: string,
  headers: Record<string, string>,
  onLine: (at: number) => void,
) {
  const response = await fetch(`${base}${path}`, { headers: { cookie: headers.cookie ?? '' } });
  if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let carry = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      carry += decoder.decode(value, { stream: true });
      const events = carry.split('\n\n');
      carry = events.pop() ?? '';
      for (const event of events) {
        if (event.startsWith('data: ')) onLine(Date.parse(event.slice(6).split('\t')[0]!));
      }
    }
  })();
  return reader;
}

/**
 * Writes `lines` lines into a container's standard output, one every `intervalMs`, from a process started in
 * it (`docker exec`), so the app itself stays quiet until the bench speaks through it.
 */
async function writeLines(docker: Docker, containerId: string, lines: number, intervalMs: number) {
  const script = `i=0; while [ $i -lt ${lines} ]; do echo "scale tick $i" > /proc/1/fd/1; i=$((i+1)); usleep ${intervalMs * 1000}; done`;
  const exec = await docker.getContainer(containerId).exec({ Cmd: ['sh', '-c', script] });
  await exec.start({ Detach: true });
}

export async function measureLogViewers(options: {
  docker: Docker;
  bases: readonly string[];
  headers: Record<string, string>;
  pids: readonly number[];
  writers: readonly FleetContainer[];
  viewers: number;
  lines: number;
  intervalMs: number;
}): Promise<ViewerRun> {
  const { bases, headers, pids, writers } = options;
  const before = serverRss(pids);
  const delays: number[] = [];
  const received = new Array<number>(options.viewers).fill(0);
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  try {
    // Connected 50 at a time, as browsers arriving; viewer i follows writer i mod W through replica i mod R.
    for (let first = 0; first < options.viewers; first += 50) {
      const batch = Array.from(
        { length: Math.min(50, options.viewers - first) },
        (_, offset) => first + offset,
      );
      readers.push(
        ...(await Promise.all(
          batch.map((index) => {
            const writer = writers[index % writers.length]!;
            const path = `/api/workspace-logs-stream/${writer.workspaceName}?follow=true&initial_lines=0`;
            return follow(bases[index % bases.length]!, path, headers, (at) => {
              delays.push(Date.now() - at);
              received[index]! += 1;
            });
          }),
        )),
      );
    }
    await sleep(2000);
    const connected = serverRss(pids);
    let peak = connected;
    for (const writer of writers)
      await writeLines(options.docker, writer.id, options.lines, options.intervalMs);
    const deadline = Date.now() + options.lines * options.intervalMs + 30_000;
    while (received.some((count) => count < options.lines) && Date.now() < deadline) {
      await sleep(500);
      peak = Math.max(peak, serverRss(pids));
    }
    return {
      viewers: options.viewers,
      writers: writers.length,
      linesEach: options.lines,
      complete: received.filter((count) => count >= options.lines).length,
      deliveries: delays.length,
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: delays.length > 0 ? delays.reduce((a, b) => Math.max(a, b), 0) : Number.NaN,
      rss: { before, connected, peak },
    };
  } finally {
    await Promise.all(readers.map((reader) => reader.cancel().catch(() => undefined)));
  }
}
