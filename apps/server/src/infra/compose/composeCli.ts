import { type RunOptions, type RunResult, runCommand } from './runCommand.js';

/**
 * The Compose CLI, run against one Docker Engine (`env` carries DOCKER_HOST for remote engines).
 * `docker compose` (v2) is preferred; `docker-compose` (v1) is the fallback. Both read the same files.
 */
export interface ComposeCli {
  readonly flavour: 'v2' | 'v1';
  run(
    project: string,
    files: string[],
    args: string[],
    options: Omit<RunOptions, 'env'> & { env?: Record<string, string> },
  ): Promise<RunResult>;
}

/** What the CLI gets from the server's environment: enough to find programs, nothing secret. */
export function baseCommandEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    ...extra,
  };
}

let detected: Promise<'v2' | 'v1'> | undefined;

async function detectFlavour(): Promise<'v2' | 'v1'> {
  try {
    await runCommand('docker', ['compose', 'version'], { env: baseCommandEnv(), timeoutMs: 15_000 });
    return 'v2';
  } catch {
    await runCommand('docker-compose', ['version'], { env: baseCommandEnv(), timeoutMs: 15_000 });
    return 'v1';
  }
}

export async function createComposeCli(options: { flavour?: 'v2' | 'v1' } = {}): Promise<ComposeCli> {
  detected ??= detectFlavour().catch((error) => {
    detected = undefined; // installed later: look again next time
    throw error;
  });
  const flavour = options.flavour ?? (await detected);
  return {
    flavour,
    run(project, files, args, runOptions) {
      const fileArgs = files.flatMap((file) => ['-f', file]);
      const [program, prefix] = flavour === 'v2' ? ['docker', ['compose']] : ['docker-compose', []];
      return runCommand(program, [...prefix, '--ansi', 'never', '-p', project, ...fileArgs, ...args], {
        ...runOptions,
        env: baseCommandEnv(runOptions.env),
      });
    },
  };
}
