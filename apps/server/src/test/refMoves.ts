import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git } from './fixtures/fixtureRepos.js';

/** How the branch's ref lay in the repository before a push moved it. */
export type RefState = 'loose' | 'packed' | 'after gc';

/**
 * A bare repository laid out as LOCAL_REPOS_DIR wants it (`{root}/{owner}/{name}.git`) and a clone that pushes to
 * it, as an operator does: git's receive-pack writes each ref as a lock file renamed over the old one.
 */
export function createPushedRepository(owner: string, name: string, files: Record<string, string> = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'slipway-ref-moves-'));
  const bare = path.join(root, owner, `${name}.git`);
  const clone = path.join(root, 'clone');
  mkdirSync(bare, { recursive: true });
  git(bare, ['init', '-q', '--bare', '-b', 'main']);
  git(root, ['clone', '-q', bare, clone]);
  git(clone, ['checkout', '-q', '-b', 'main']);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    writeFileSync(path.join(clone, file), content);
  }
  git(clone, ['add', '-A']);
  git(clone, ['commit', '-q', '--allow-empty', '-m', 'first']);
  git(clone, ['push', '-q', 'origin', 'main']);
  let commits = 0;
  return {
    root,
    bare,
    /** A new commit pushed to `branch`; answers its SHA. */
    push(branch: string): string {
      git(clone, ['commit', '-q', '--allow-empty', '-m', `move ${++commits}`]);
      git(clone, ['push', '-q', '--force', 'origin', `HEAD:refs/heads/${branch}`]);
      return git(clone, ['rev-parse', 'HEAD']).trim();
    },
    /** Puts the repository's refs in `state` before the next push: packed (`git pack-refs`), or `git gc`'s. */
    arrange(state: RefState) {
      if (state === 'packed') git(bare, ['pack-refs', '--all']);
      if (state === 'after gc') git(bare, ['gc', '--quiet', '--prune=now']);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The state the i-th of a series of pushes starts from: loose, packed, after gc, loose… */
export const refStateOf = (i: number): RefState => (['loose', 'packed', 'after gc'] as const)[i % 3]!;

/** Polls `done` (a cheap read: a database row or the ref watcher's count) until it holds or `ms` pass. */
export async function within(ms: number, done: () => Promise<boolean> | boolean): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await done()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not within ${ms} ms`);
}
