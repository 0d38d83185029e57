import { spawn } from 'node:child_process';

export interface RunOptions {
  cwd?: string;
  /** The complete environment of the child: nothing of the server's own environment leaks in unless passed. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Each line of stdout and stderr, as it arrives. */
  onLine?: (line: string, source: 'stdout' | 'stderr') => void;
  /** How much output to keep for the result (the tail). */
  keepBytes?: number;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class CommandError extends Error {
  override name = 'CommandError';
  constructor(
    message: string,
    readonly result: RunResult & { timedOut: boolean },
  ) {
    super(message);
  }
}

/**
 * Runs a program with an argument array (never a shell), streaming its output line by line, and kills it
 * (the whole process group) when the timeout passes or the signal aborts.
 */
export function runCommand(file: string, args: string[], options: RunOptions): Promise<RunResult> {
  const keep = options.keepBytes ?? 256 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const partial = { stdout: '', stderr: '' };

    const kill = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const consume = (source: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (source === 'stdout') stdout = (stdout + text).slice(-keep);
      else stderr = (stderr + text).slice(-keep);
      if (!options.onLine) return;
      const lines = (partial[source] + text).split(/\r?\n|\r/);
      partial[source] = lines.pop() ?? '';
      for (const line of lines) options.onLine(line, source);
    };
    child.stdout.on('data', consume('stdout'));
    child.stderr.on('data', consume('stderr'));

    const finish = (code: number, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      for (const source of ['stdout', 'stderr'] as const) {
        if (partial[source]) options.onLine?.(partial[source], source);
      }
      const result = { code, stdout, stderr };
      if (error) return reject(new CommandError(error.message, { ...result, timedOut }));
      if (timedOut) {
        return reject(
          new CommandError(`${file} timed out after ${Math.round(options.timeoutMs / 1000)} s`, {
            ...result,
            timedOut,
          }),
        );
      }
      if (options.signal?.aborted)
        return reject(new CommandError(`${file} was cancelled`, { ...result, timedOut }));
      if (code !== 0)
        return reject(new CommandError(`${file} exited with code ${code}`, { ...result, timedOut }));
      resolve(result);
    };
    child.on('error', (error) => finish(-1, error));
    child.on('close', (code) => finish(code ?? -1));
  });
}
