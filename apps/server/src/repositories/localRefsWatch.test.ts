import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchLocalRefs } from './localGit.js';

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

  it('refuses a repository that is not there', async () => {
    await expect(watchLocalRefs(root, 'operator', 'missing', () => {})).rejects.toThrow(/not found/);
  });
});
