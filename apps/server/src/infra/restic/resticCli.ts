import { spawn } from 'node:child_process';
import { closeSync, existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ResticError, resticError } from './resticErrors.js';
import { locationInvocation } from './resticLocation.js';
import { recordProcess, secretDescriptor } from './resticProcesses.js';
import type {
  RepositoryLocation,
  ResticRepository,
  ResticSnapshot,
  StreamBackup,
} from './resticRepository.js';

/** restic's tags are comma-separated on its command line: a tag is one plain word. */
const TAG = /^[A-Za-z0-9][A-Za-z0-9_.:=@-]{0,199}$/;
/** A snapshot id, full or short. */
const SNAPSHOT_ID = /^[0-9a-f]{8,64}$/;
/** A file name inside a snapshot (`{service}.sql`): Compose names, never a path. */
const STDIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,200}$/;
const STDERR_LIMIT = 64 * 1024;

function checkTags(tags: string[]): void {
  for (const tag of tags)
    if (!TAG.test(tag)) throw new ResticError(`A backup tag is not a plain word: ${tag}`);
}

function checkSnapshotId(id: string): void {
  if (!SNAPSHOT_ID.test(id)) throw new ResticError(`Not a snapshot id: ${id}`);
}

export function checkStdinName(name: string): void {
  if (!STDIN_NAME.test(name)) throw new ResticError(`Not a file name for a backup part: ${name}`);
}

const pick = (env: NodeJS.ProcessEnv, names: string[]): Record<string, string> =>
  Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));

export interface ResticRun {
  stdout: Readable;
  /** Resolves with restic's stdout when it was not streamed, rejects with a ResticError sentence. */
  done: Promise<string>;
  kill(): void;
}

export interface ResticCliOptions {
  /**
   * This server's own directory for restic's runtime records (resticProcesses.ts): which restic processes run,
   * so that the next start after a crash stops them.
   */
  runtimeDir: string;
  binary?: string;
}

/**
 * A restic repository driven through the `restic` command: argument arrays; the password as a descriptor of an
 * already-unlinked file (`--password-file /dev/fd/3`: nothing on disk, nothing on argv or in the environment);
 * S3 keys in the child's environment only. Each running restic is recorded until it ends.
 */
export class ResticCli implements ResticRepository {
  constructor(
    private readonly location: RepositoryLocation,
    private readonly password: string,
    private readonly options: ResticCliOptions,
  ) {}

  /** Runs one restic command; `input` is piped to its stdin, `stream` leaves its stdout to the caller. */
  private run(
    args: string[],
    action: string,
    options: { input?: Readable; stream?: boolean } = {},
  ): ResticRun {
    const where = locationInvocation(this.location);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? tmpdir(),
      TMPDIR: tmpdir(),
      // The certificate authorities restic (Go) trusts, when the operator names its own (a private S3 service).
      ...pick(process.env, ['SSL_CERT_FILE', 'SSL_CERT_DIR']),
      ...where.env,
    };
    const key = secretDescriptor(this.options.runtimeDir, this.password);
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(
        this.options.binary ?? '/usr/bin/restic',
        ['--password-file', '/dev/fd/3', ...where.args, ...args],
        { env, stdio: ['pipe', 'pipe', 'pipe', key] },
      );
    } finally {
      closeSync(key);
    }
    const record = child.pid ? recordProcess(this.options.runtimeDir, child.pid) : undefined;
    const stdout = child.stdout!;
    const stdin = child.stdin!;
    let killed = false;
    let stderr = '';
    const out: Buffer[] = [];
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString('utf8');
    });
    if (!options.stream) stdout.on('data', (chunk: Buffer) => out.push(chunk));
    // restic exiting early closes its stdin; its exit code says why.
    stdin.on('error', () => {});
    if (options.input) options.input.pipe(stdin);
    else stdin.end();
    const done = new Promise<string>((resolve, reject) => {
      child.on('error', (error) => {
        record?.done();
        reject(new ResticError(`restic could not be started: ${error.message}`));
      });
      child.on('close', (code, signal) => {
        record?.done();
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else if (killed) reject(new ResticError(`restic was stopped before it finished: ${action}`));
        else reject(resticError(stderr || `exit ${code ?? signal}`, action));
      });
    });
    // A stream caller reads stdout and awaits `done`; an unawaited rejection would crash the process.
    done.catch(() => {});
    return {
      stdout,
      done,
      kill: () => {
        killed = true;
        // SIGINT: restic's own clean-up (its lock in the repository) runs before it exits.
        child.kill('SIGINT');
      },
    };
  }

  private async json<T>(args: string[], action: string): Promise<T> {
    const out = await this.run(['--json', ...args], action).done;
    return JSON.parse(out) as T;
  }

  /**
   * Makes the repository on first use. A local one is seen on disk (its `config` file): each restic run opens
   * the repository and derives the key again, so a run spared is time spared; a remote one is asked.
   */
  async ensureInitialised(): Promise<void> {
    if (this.location.kind === 'local') {
      if (existsSync(join(this.location.path, 'config'))) return;
      await mkdir(this.location.path, { recursive: true, mode: 0o700 });
    } else {
      try {
        await this.run(['cat', 'config'], 'open the repository').done;
        return;
      } catch (error) {
        if (!(error instanceof ResticError) || !/does not exist/.test(error.message)) throw error;
      }
    }
    await this.run(['init'], 'create the repository').done;
  }

  async check(readData?: string): Promise<void> {
    if (readData !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(readData)) {
      throw new ResticError(`Not a share of the repository's data: ${readData}`);
    }
    await this.run(['check', ...(readData ? [`--read-data-subset=${readData}`] : [])], 'check the repository')
      .done;
  }

  async unlockStale(): Promise<void> {
    await this.run(['unlock'], 'remove stale locks').done;
  }

  async listLocks(): Promise<string[]> {
    const out = await this.run(['list', 'locks', '--no-lock'], 'list locks').done;
    return out.split('\n').filter((line) => /^[0-9a-f]{64}$/.test(line));
  }

  async forget(tags: string[], policy: { daily: number; weekly: number; keep: string[] }): Promise<void> {
    checkTags(tags);
    // Grouped by file (one per service part), not by host: a server that moved keeps its history in one line.
    const args = [
      'forget',
      '--group-by',
      'paths',
      '--keep-daily',
      String(policy.daily),
      '--keep-weekly',
      String(policy.weekly),
    ];
    if (tags.length) args.push(`--tag=${tags.join(',')}`);
    const groups = await this.json<{ remove: { id: string }[] | null }[]>(
      [...args, '--dry-run'],
      'plan retention',
    );
    const kept = (id: string) => policy.keep.some((keep) => id.startsWith(keep) || keep.startsWith(id));
    const remove = groups
      .flatMap((group) => (group.remove ?? []).map((snapshot) => snapshot.id))
      .filter((id) => !kept(id));
    await this.removeSnapshots(remove);
  }

  /** The snapshots holding every one of `tags` (all of them without tags), oldest first. */
  async listSnapshots(tags: string[] = []): Promise<ResticSnapshot[]> {
    checkTags(tags);
    const args = ['snapshots', ...(tags.length ? [`--tag=${tags.join(',')}`] : [])];
    const snapshots = await this.json<{ id: string; time: string; tags?: string[] }[] | null>(
      args,
      'list snapshots',
    );
    return (snapshots ?? []).map((snapshot) => ({
      id: snapshot.id,
      time: snapshot.time,
      tags: snapshot.tags ?? [],
    }));
  }

  async removeSnapshots(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const id of ids) checkSnapshotId(id);
    await this.run(['forget', '--prune', '--', ...ids], 'remove snapshots').done;
  }

  async backupStream(input: Readable, filename: string, tags: string[]): Promise<StreamBackup> {
    checkStdinName(filename);
    checkTags(tags);
    const run = this.run(
      ['backup', '--stdin', '--stdin-filename', filename, '--json', ...tags.map((tag) => `--tag=${tag}`)],
      'write the backup',
      { input },
    );
    input.once('error', () => run.kill());
    const out = await run.done;
    const summary = out
      .split('\n')
      .filter((line) => line.includes('"summary"'))
      .map(
        (line) =>
          JSON.parse(line) as { snapshot_id?: string; data_added: number; total_bytes_processed: number },
      )
      .at(-1);
    if (!summary?.snapshot_id) throw new ResticError('restic finished without reporting a snapshot');
    return {
      snapshotId: await this.fullSnapshotId(summary.snapshot_id),
      sizeBytes: summary.total_bytes_processed,
      addedBytes: summary.data_added,
    };
  }

  /**
   * restic 0.14's backup summary names the snapshot by its short id; the full one is the name of its file in a
   * local repository's `snapshots` folder (restic's repository layout), and asked of restic elsewhere.
   */
  private async fullSnapshotId(shortId: string): Promise<string> {
    checkSnapshotId(shortId);
    if (shortId.length === 64) return shortId;
    if (this.location.kind === 'local') {
      const names = await readdir(join(this.location.path, 'snapshots'));
      const found = names.filter((name) => name.startsWith(shortId) && SNAPSHOT_ID.test(name));
      if (found.length === 1) return found[0]!;
    }
    const [snapshot] = await this.json<{ id: string }[]>(['snapshots', '--', shortId], 'find the snapshot');
    return snapshot?.id ?? shortId;
  }

  dumpStream(snapshotId: string, filename: string): ResticRun {
    checkSnapshotId(snapshotId);
    checkStdinName(filename);
    return this.run(['dump', '--', snapshotId, `/${filename}`], 'read the backup', { stream: true });
  }
}
