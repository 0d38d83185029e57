import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPushedRepository, refStateOf, within } from '../test/refMoves.js';
import { localPullRequestRefs, watchLocalRefs } from './localGit.js';

/** Previews in local mode learn of a new `pr/{n}` branch from the kernel, not by polling the repository. */
describe('watching a local repository’s refs', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'slipway-refs-watch-'));
  const dir = path.join(root, 'operator', 'site');
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args])
      .toString()
      .trim();
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'one');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('calls back when a branch appears, when a pull ref is written, and when refs are packed', async () => {
    let changes = 0;
    let waiting: (() => void) | undefined;
    const next = () => new Promise<void>((resolve) => (waiting = resolve));
    const stop = await watchLocalRefs(root, 'operator', 'site', () => {
      changes++;
      waiting?.();
    });
    try {
      let change = next();
      git('branch', 'pr/3');
      await change;
      change = next();
      git('update-ref', 'refs/pull/4/head', git('rev-parse', 'HEAD'));
      await change;
      change = next();
      git('pack-refs', '--all');
      await change;
      expect(changes).toBeGreaterThanOrEqual(3);
    } finally {
      stop();
    }
  });

  /**
   * Issue 39: Node's recursive watch follows each ref FILE, and git replaces a ref by renaming a lock file over it,
   * so after the first push nothing was told until the 30 s full read. Each of 20 pushes (the ref loose, packed,
   * or after `git gc`) is told within 2 s, and the refs read then show the new commit.
   */
  it('tells every move of a branch, 20 pushes with pack-refs and gc between them, each within 2 s', async () => {
    const pushed = createPushedRepository('operator', 'pushed');
    let changes = 0;
    const stop = await watchLocalRefs(pushed.root, 'operator', 'pushed', () => changes++);
    const waits: number[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        pushed.arrange(refStateOf(i));
        const before = changes;
        // A branch under a directory of its own (pr/…), which pack-refs and gc remove and a push makes again.
        const sha = pushed.push(i % 2 === 0 ? 'pr/7' : 'main');
        const branch = i % 2 === 0 ? 'pr/7' : 'main';
        waits.push(
          await within(2000, async () => {
            if (changes === before) return false;
            return (await localPullRequestRefs(pushed.root, 'operator', 'pushed')).get(branch) === sha;
          }),
        );
      }
    } finally {
      stop();
      pushed.cleanup();
    }
    expect(waits).toHaveLength(20);
  });

  /**
   * `git pack-refs` writes packed-refs, then removes the loose files: read in the other order, a branch was in
   * neither now and then, and a preview's `pr/{n}` branch missing for one read was taken for a closed pull request.
   */
  it('never reads a branch as gone while pack-refs moves it from loose to packed', async () => {
    const head = git('rev-parse', 'HEAD');
    git('update-ref', 'refs/heads/pr/9', head);
    const packing = spawn('bash', [
      '-c',
      `for i in $(seq 1 150); do git -C "$0" update-ref refs/heads/pr/9 ${head}; git -C "$0" pack-refs --all; done`,
      dir,
    ]);
    const ended = new Promise((resolve) => packing.once('exit', resolve));
    let running = true;
    void ended.then(() => (running = false));
    let reads = 0;
    let missing = 0;
    while (running) {
      const refs = await localPullRequestRefs(root, 'operator', 'site');
      reads++;
      if (!refs.has('main') || !refs.has('pr/9')) missing++;
    }
    expect(await ended).toBe(0);
    expect(reads).toBeGreaterThan(50);
    expect(missing).toBe(0);
  });

  it('refuses a repository that is not there', async () => {
    await expect(watchLocalRefs(root, 'operator', 'missing', () => {})).rejects.toThrow(/not found/);
  });
});
