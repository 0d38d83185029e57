import { baseCommandEnv } from '../compose/composeCli.js';
import { runCommand } from '../compose/runCommand.js';

export interface CloneSource {
  /** An https URL, or the absolute path of a local repository. */
  url: string;
  /** Extra HTTP headers, e.g. `Authorization: Bearer …` with a short-lived installation token. */
  headers?: Record<string, string>;
}

/**
 * Shallow-clones one branch. The branch and URL are single arguments after `--branch` and `--`, so a branch
 * full of shell metacharacters is only a name. Headers travel in GIT_CONFIG_* variables, not in argv where
 * `ps` would show the token. Returns the commit SHA.
 */
export async function shallowClone(
  source: CloneSource,
  branch: string,
  dir: string,
  options: { timeoutMs: number; signal?: AbortSignal; onLine?: (line: string) => void },
): Promise<string> {
  const { url, env } = gitAccess(source);
  if (branch.startsWith('refs/')) return shallowFetchRef(url, env, branch, dir, options);
  await runCommand(
    'git',
    ['clone', '--depth', '1', '--single-branch', '--no-tags', '--branch', branch, '--', url, dir],
    { env, timeoutMs: options.timeoutMs, signal: options.signal, onLine: options.onLine },
  );
  const { stdout } = await runCommand('git', ['-C', dir, 'rev-parse', 'HEAD'], { env, timeoutMs: 15_000 });
  return stdout.trim();
}

/**
 * A ref that is not a branch (a pull request's `refs/pull/7/head`, which `clone --branch` cannot name): an empty
 * repository, a shallow fetch of that one ref, and its commit checked out detached.
 */
async function shallowFetchRef(
  url: string,
  env: Record<string, string>,
  ref: string,
  dir: string,
  options: { timeoutMs: number; signal?: AbortSignal; onLine?: (line: string) => void },
): Promise<string> {
  const run = { env, timeoutMs: options.timeoutMs, signal: options.signal, onLine: options.onLine };
  await runCommand('git', ['init', '-q', '--', dir], run);
  await runCommand('git', ['-C', dir, 'fetch', '--depth', '1', '--no-tags', '--', url, ref], run);
  await runCommand('git', ['-C', dir, 'checkout', '-q', '--detach', 'FETCH_HEAD'], run);
  const { stdout } = await runCommand('git', ['-C', dir, 'rev-parse', 'HEAD'], { env, timeoutMs: 15_000 });
  return stdout.trim();
}

/** The URL git reaches (file:// for a local path, so --depth applies) and the environment that configures it. */
function gitAccess(source: CloneSource) {
  const local = source.url.startsWith('/');
  // --depth is ignored for plain paths; file:// makes a local clone shallow too.
  const url = local ? `file://${source.url}` : source.url;
  const config: [string, string][] = [
    ['protocol.allow', 'never'],
    [local ? 'protocol.file.allow' : 'protocol.https.allow', 'always'],
    ['core.hooksPath', '/dev/null'],
    ...Object.entries(source.headers ?? {}).map(([name, value]): [string, string] => [
      'http.extraHeader',
      `${name}: ${value}`,
    ]),
  ];
  const env = baseCommandEnv({
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_COUNT: String(config.length),
    ...Object.fromEntries(
      config.flatMap(([key, value], index) => [
        [`GIT_CONFIG_KEY_${index}`, key],
        [`GIT_CONFIG_VALUE_${index}`, value],
      ]),
    ),
  });
  return { url, env };
}
