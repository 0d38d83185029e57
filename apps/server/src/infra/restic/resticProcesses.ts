import { randomUUID } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * What a server's restic commands leave in its runtime directory (one per data directory, so two servers on one
 * machine never touch each other's): a record of each running restic process, removed when it ends, so that the
 * next start after a crash stops the ones still running (by pid and start time, never by name); and nothing
 * else — a password reaches restic as an already-unlinked file's descriptor.
 */

const processesDir = (runtimeDir: string) => join(runtimeDir, 'processes');
const keysDir = (runtimeDir: string) => join(runtimeDir, 'keys');

/**
 * The kernel's start time of a process (field 22 of /proc/PID/stat), or undefined once it is gone (or a zombie
 * waiting for its new parent to reap it).
 */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

/** Notes a restic process as running; `done` forgets it when it ends. */
export function recordProcess(runtimeDir: string, pid: number): { done(): void } {
  const dir = processesDir(runtimeDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, String(pid));
  writeFileSync(file, startTimeOf(pid) ?? '', { mode: 0o600 });
  return { done: () => rmSync(file, { force: true }) };
}

/**
 * A descriptor of a file holding `secret` that is already gone from the directory (the caller passes it to the
 * child and closes it): nothing is left on disk, even after a crash, but for the instant between write and unlink.
 */
export function secretDescriptor(runtimeDir: string, secret: string): number {
  const dir = keysDir(runtimeDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, randomUUID());
  const fd = openSync(file, 'w+', 0o600);
  try {
    unlinkSync(file);
    writeSync(fd, secret);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * At start: stops the restic processes an earlier run of this server left running (a crash does not stop its
 * children) — SIGINT first, so restic removes its own lock, SIGKILL after 10 s — and removes what the instant
 * between a key file's write and unlink could have left. Answers the pids it stopped.
 */
export async function stopLeftoverProcesses(runtimeDir: string): Promise<number[]> {
  await rm(keysDir(runtimeDir), { recursive: true, force: true });
  const dir = processesDir(runtimeDir);
  const stopped: number[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(name);
    const recorded = await readFile(join(dir, name), 'utf8').catch(() => '');
    // Only the very process recorded: a pid the kernel has given to another process since is left alone.
    if (Number.isInteger(pid) && pid > 0 && recorded && startTimeOf(pid) === recorded) {
      process.kill(pid, 'SIGINT');
      for (let waited = 0; waited < 10_000 && startTimeOf(pid) === recorded; waited += 100) await delay(100);
      if (startTimeOf(pid) === recorded) process.kill(pid, 'SIGKILL');
      stopped.push(pid);
    }
    await rm(join(dir, name), { force: true });
  }
  return stopped;
}
