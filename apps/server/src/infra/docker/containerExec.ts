import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type Docker from 'dockerode';

const STDERR_LIMIT = 16 * 1024;

/**
 * Docker's multiplexed exec output (8-byte frame headers) split into stdout, passed on with backpressure, and
 * stderr, kept up to a limit for the error sentence. dockerode's demuxStream ignores backpressure, which would
 * hold a whole dump in memory when restic reads slower than the database writes.
 */
export class ExecOutputSplitter extends Transform {
  stderr = '';
  private pending = Buffer.alloc(0);

  constructor(private readonly onStderr?: (text: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let buffer = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (buffer.length >= 8) {
      const size = buffer.readUInt32BE(4);
      if (buffer.length < 8 + size) break;
      const payload = buffer.subarray(8, 8 + size);
      if (buffer[0] === 2) {
        const text = payload.toString('utf8');
        this.onStderr?.(text);
        if (this.stderr.length < STDERR_LIMIT) this.stderr += text;
      } else this.push(payload);
      buffer = buffer.subarray(8 + size);
    }
    this.pending = Buffer.from(buffer);
    callback();
  }
}

export interface ExecOptions {
  /** `KEY=value` entries for the command's environment only (a password never goes on argv). */
  env?: string[];
  user?: string;
  /** Bytes for the command's stdin; its end closes the command's stdin. */
  stdin?: Readable;
  /** Sees all of stderr (the error sentence keeps only its last lines). */
  onStderr?: (text: string) => void;
}

export interface RunningExec {
  stdout: Readable;
  /** Resolves when the command exited 0; rejects with its stderr's last lines otherwise. */
  finished: Promise<void>;
  /** Stops it (its reader failed): the command must not be left blocked on a write nobody reads. */
  cancel(): void;
}

/** stderr as whole lines, however the engine cut it into frames. */
export function byLine(onLine: (line: string) => void): (text: string) => void {
  let partial = '';
  return (text) => {
    const lines = (partial + text).split('\n');
    partial = (lines.pop() ?? '').slice(-4096);
    for (const line of lines) onLine(line);
  };
}

export class ExecFailure extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly stderr: string,
    command: string,
  ) {
    const detail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
    super(`${command} exited with ${exitCode ?? 'no code'}${detail ? `: ${detail}` : ''}`);
  }
}

/** Waits for the exec's process to be gone (its output can end a moment before the engine records the code). */
async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  for (;;) {
    const state = await exec.inspect();
    if (!state.Running) return state.ExitCode;
    await delay(50);
  }
}

/** Runs `cmd` (an argument array, no shell) in a running container, its stdout as a stream. */
export async function execStream(
  docker: Docker,
  containerId: string,
  cmd: string[],
  options: ExecOptions = {},
): Promise<RunningExec> {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: cmd,
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: Boolean(options.stdin),
    Env: options.env,
    User: options.user,
    Tty: false,
  });
  const socket = (await exec.start({
    hijack: true,
    stdin: Boolean(options.stdin),
  })) as unknown as NodeJS.ReadWriteStream & Readable;
  const splitter = new ExecOutputSplitter(options.onStderr);
  socket.pipe(splitter);
  let inputError: Error | undefined;
  let cancelled = false;
  if (options.stdin) {
    options.stdin.pipe(socket as unknown as NodeJS.WritableStream);
    // A failed input ends the command's stdin, and the command's end reports the input's error.
    options.stdin.once('error', (error) => {
      inputError = error;
      socket.end();
    });
  }
  const finished = new Promise<void>((resolve, reject) => {
    splitter.on('error', reject);
    socket.on('error', reject);
    // 'close' comes after the output ended, or after cancel() destroyed the connection.
    socket.once('close', () => {
      if (cancelled) {
        reject(new Error(`${cmd[0] ?? 'command'} was stopped`));
        return;
      }
      exitCodeOf(exec).then((code) => {
        if (inputError) reject(inputError);
        else if (code === 0) resolve();
        else reject(new ExecFailure(code, splitter.stderr, cmd[0] ?? 'command'));
      }, reject);
    });
  });
  finished.catch(() => {}); // the caller awaits it; an unawaited rejection must not crash the server
  return {
    stdout: splitter,
    finished,
    cancel: () => {
      cancelled = true;
      // Closing the connection closes the command's output: its next write ends it (SIGPIPE).
      socket.destroy();
    },
  };
}

/** Runs `cmd` in a running container and answers its stdout (small outputs: queries, listings). */
export async function execText(
  docker: Docker,
  containerId: string,
  cmd: string[],
  options: ExecOptions = {},
): Promise<string> {
  const run = await execStream(docker, containerId, cmd, options);
  const chunks: Buffer[] = [];
  run.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  await run.finished;
  return Buffer.concat(chunks).toString('utf8');
}
