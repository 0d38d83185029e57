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
  writeFiles(dir, files);
  const git = gitIn(dir, new Date(Date.now() - (options.ageDays ?? 0) * DAY_MS));
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  for (const branch of options.branches ?? []) git('branch', '--', branch);
  return dir;
}

/** Runs git in `dir` as the tests' author, with commits dated `date`; answers its output, trimmed. */
export function gitIn(dir: string, date = new Date()) {
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'E2E',
    GIT_AUTHOR_EMAIL: 'e2e@slipway.localhost',
    GIT_COMMITTER_NAME: 'E2E',
    GIT_COMMITTER_EMAIL: 'e2e@slipway.localhost',
    GIT_AUTHOR_DATE: date.toISOString(),
    GIT_COMMITTER_DATE: date.toISOString(),
  };
  return (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
}

/** A new commit on the checked-out branch of the repository in `dir`, changing `files`. */
export function commitFiles(dir: string, files: Record<string, string>, message = 'change') {
  writeFiles(dir, files);
  const git = gitIn(dir);
  git('add', '-A');
  git('commit', '-q', '-m', message);
}

export function writeFiles(dir: string, files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}
