import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const DAY_MS = 86_400_000;

/**
 * A real git repository `{root}/{owner}/{name}` holding `files` in one commit dated `ageDays` ago, plus
 * any extra branches: what local mode's repository picker lists and the engine clones.
 */
export function makeRepo(
  root: string,
  owner: string,
  name: string,
  files: Record<string, string>,
  options: { ageDays?: number; branches?: string[] } = {},
): string {
  const dir = path.join(root, owner, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const date = new Date(Date.now() - (options.ageDays ?? 0) * DAY_MS).toISOString();
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'E2E',
    GIT_AUTHOR_EMAIL: 'e2e@slipway.localhost',
    GIT_COMMITTER_NAME: 'E2E',
    GIT_COMMITTER_EMAIL: 'e2e@slipway.localhost',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  for (const branch of options.branches ?? []) git('branch', '--', branch);
  return dir;
}
