/**
 * Keeps this machine's Docker Engine (and its disk and CPU) busy, as other tenants would: image builds, containers
 * started and killed, output flooded, restic backups killed mid-write. Run it beside the test suite to check
 * that no result changes under load (issue 38: "one of them beside a script that keeps the engine busy"):
 *
 *   npx tsx bench/busy-engine.ts [--minutes 30] [--workers 3]
 *
 * Everything it makes is labelled `dev.slipway.busy-engine={its pid}` (containers, images) or lives in its own
 * temp directory, and is removed when it stops (Ctrl-C, or after --minutes). It prints a line a minute.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import Docker from 'dockerode';

const run = promisify(execFile);
const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '30' }, workers: { type: 'string', default: '3' } },
});
const until = Date.now() + Number(values.minutes) * 60_000;
const docker = new Docker({ socketPath: '/var/run/docker.sock' });
const LABEL = 'dev.slipway.busy-engine';
const label = { [LABEL]: String(process.pid) };
const dir = mkdtempSync(path.join(tmpdir(), 'slipway-busy-'));
const counts = { builds: 0, containers: 0, kills: 0, restics: 0, errors: 0 };
let stopping = false;
const children = new Set<ChildProcess>();

/** A build whose cache misses every time (a random argument), so the engine really builds. */
async function build() {
  const nonce = randomBytes(8).toString('hex');
  writeFileSync(
    path.join(dir, 'Dockerfile'),
    'FROM busybox:1.36\nARG NONCE\nRUN echo "$NONCE" > /nonce && dd if=/dev/urandom of=/blob bs=1M count=8 2>/dev/null\n',
  );
  const tag = `slipway-busy-${process.pid}:${counts.builds}`;
  await run('docker', [
    'build',
    '-q',
    '--label',
    `${LABEL}=${process.pid}`,
    '--build-arg',
    `NONCE=${nonce}`,
    '-t',
    tag,
    '-f',
    path.join(dir, 'Dockerfile'),
    dir,
  ]);
  counts.builds += 1;
  await run('docker', ['rmi', '-f', tag]);
}

/** A container that floods its output, killed a moment later (the engine follows and drops its log). */
async function startAndKill() {
  const container = await docker.createContainer({
    Image: 'busybox:1.36',
    Cmd: ['sh', '-c', 'while true; do head -c 65536 /dev/urandom | od -x; done'],
    Labels: label,
    HostConfig: { NetworkMode: 'none' },
  });
  await container.start();
  counts.containers += 1;
  await delay(500 + Math.random() * 1500);
  await container.kill().catch(() => undefined);
  counts.kills += 1;
  await container.remove({ force: true });
}

/** A restic backup of random bytes into a repository of its own, killed with SIGKILL mid-write. */
async function resticKilled() {
  const repo = path.join(dir, 'restic');
  const env = { ...process.env, RESTIC_PASSWORD: 'busy' };
  await run('restic', ['--repo', repo, 'init'], { env }).catch(() => undefined);
  const child = spawn('restic', ['--repo', repo, 'backup', '--stdin', '--stdin-filename', 'noise'], {
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  children.add(child);
  const noise = setInterval(() => child.stdin?.write(randomBytes(1024 * 1024)), 10);
  child.stdin?.on('error', () => undefined);
  await delay(1000 + Math.random() * 2000);
  clearInterval(noise);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  children.delete(child);
  counts.restics += 1;
}

async function worker(n: number) {
  const jobs = [build, startAndKill, startAndKill, resticKilled];
  for (let i = n; !stopping && Date.now() < until; i++) {
    await jobs[i % jobs.length]!().catch((error: Error) => {
      counts.errors += 1;
      if (counts.errors < 5) console.error(`busy-engine: ${error.message.split('\n')[0]}`);
    });
  }
}

async function cleanUp() {
  stopping = true;
  for (const child of children) child.kill('SIGKILL');
  for (const container of await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL}=${process.pid}`] },
  })) {
    await docker
      .getContainer(container.Id)
      .remove({ force: true })
      .catch(() => undefined);
  }
  for (const image of await docker.listImages({ filters: { label: [`${LABEL}=${process.pid}`] } })) {
    await docker
      .getImage(image.Id)
      .remove({ force: true })
      .catch(() => undefined);
  }
  rmSync(dir, { recursive: true, force: true });
}

process.once('SIGINT', () => {
  stopping = true;
});
const report = setInterval(() => console.log(`busy-engine: ${JSON.stringify(counts)}`), 60_000);
try {
  await Promise.all(Array.from({ length: Number(values.workers) }, (_, n) => worker(n)));
} finally {
  clearInterval(report);
  await cleanUp();
  console.log(`busy-engine: done ${JSON.stringify(counts)}`);
}
