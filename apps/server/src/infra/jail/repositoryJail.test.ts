import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JailError, openRepositoryJail, readResolved } from './repositoryJail.js';

let base: string;
let repo: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'slipway-jail-')));
  repo = path.join(base, 'repo');
  outside = path.join(base, 'host');
  mkdirSync(path.join(repo, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secrets.json'), 'HOST-MARKER');
  writeFileSync(path.join(repo, 'ok.env'), 'A=1\n');
  writeFileSync(path.join(repo, 'sub', 'inner.env'), 'B=2\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof JailError) return error.reason;
    throw error;
  }
  return 'allowed';
};

describe('the repository jail', () => {
  it('reads files inside the checkout, through links that stay inside', () => {
    symlinkSync('sub/inner.env', path.join(repo, 'inside-link.env'));
    const jail = openRepositoryJail(repo);
    expect(jail.readText('ok.env', { maxBytes: 100 })).toBe('A=1\n');
    expect(jail.readText('inside-link.env', { maxBytes: 100 })).toBe('B=2\n');
    expect(jail.readText('../ok.env', { from: path.join(repo, 'sub'), maxBytes: 100 })).toBe('A=1\n');
    expect(jail.resolve('inside-link.env')).toBe(path.join(repo, 'sub', 'inner.env'));
  });

  it.each([
    [
      'an absolute link',
      () => symlinkSync(path.join(outside, 'secrets.json'), path.join(repo, 'x.env')),
      'x.env',
    ],
    ['a relative link', () => symlinkSync('../host/secrets.json', path.join(repo, 'x.env')), 'x.env'],
    ['a symlinked directory', () => symlinkSync(outside, path.join(repo, 'dir')), 'dir/secrets.json'],
    ['a plain ../ path', () => {}, '../host/secrets.json'],
    ['an absolute path', () => {}, '/etc/hostname'],
    ['a dangling link out', () => symlinkSync('/nonexistent/x', path.join(repo, 'x.env')), 'x.env'],
    [
      'a missing path below a symlinked directory',
      () => symlinkSync(outside, path.join(repo, 'dir')),
      'dir/not-there/nginx.conf',
    ],
  ])('refuses %s out of the checkout, without reading it', (_name, arrange, given) => {
    arrange();
    const jail = openRepositoryJail(repo);
    expect(refusal(() => jail.readText(given, { maxBytes: 1000 }))).toBe('outside');
    expect(refusal(() => jail.resolve(given))).toBe('outside');
    try {
      jail.readText(given, { maxBytes: 1000 });
    } catch (error) {
      expect((error as Error).message).toBe(`${given} points outside the repository`);
      expect((error as Error).message).not.toContain('HOST-MARKER');
    }
  });

  it('refuses a file or a directory swapped for a link between the check and the open', () => {
    const jail = openRepositoryJail(repo);
    const file = jail.resolve('ok.env');
    const nested = jail.resolve('sub/inner.env');
    // Swap what was checked for links to the host, as a racing attacker would.
    renameSync(file, `${file}.old`);
    symlinkSync(path.join(outside, 'secrets.json'), file);
    writeFileSync(path.join(outside, 'inner.env'), 'HOST-MARKER');
    renameSync(path.join(repo, 'sub'), path.join(repo, 'sub.old'));
    symlinkSync(outside, path.join(repo, 'sub'));
    expect(refusal(() => readResolved(jail.root, file, 'ok.env', 1000))).toBe('outside');
    expect(refusal(() => readResolved(jail.root, nested, 'sub/inner.env', 1000))).toBe('outside');
  });

  it('refuses files over the size limit and things that are not files', () => {
    writeFileSync(path.join(repo, 'big.yml'), 'x'.repeat(2048));
    const jail = openRepositoryJail(repo);
    expect(refusal(() => jail.readText('big.yml', { maxBytes: 1024 }))).toBe('too_large');
    expect(refusal(() => jail.readText('sub', { maxBytes: 1024 }))).toBe('not_a_file');
    expect(refusal(() => jail.readText('missing.env', { maxBytes: 1024 }))).toBe('missing');
  });

  it('finds links in a build context that point outside the checkout, and only those', () => {
    mkdirSync(path.join(repo, 'ctx', 'deep'), { recursive: true });
    symlinkSync(path.join(outside, 'secrets.json'), path.join(repo, 'ctx', 'deep', 'abs'));
    symlinkSync('../../../../host', path.join(repo, 'ctx', 'deep', 'reldir'));
    symlinkSync('../ok.env', path.join(repo, 'ctx', 'fine'));
    const jail = openRepositoryJail(repo);
    const found = jail
      .findEscapingLinks('ctx', { maxEntries: 100 })
      .map((e) => e.link)
      .sort();
    expect(found).toEqual(['ctx/deep/abs', 'ctx/deep/reldir']);
    expect(refusal(() => jail.findEscapingLinks('ctx', { maxEntries: 2 }))).toBe('too_large');
  });
});
