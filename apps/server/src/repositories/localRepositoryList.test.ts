import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Repository } from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../users/usersRepository.js';
import { createLocalRepositoryProvider } from './localRepositoryProvider.js';

const COUNT = 40;
const user = {} as UserRow;

function git(cwd: string, args: string[], date = '2024-03-01T12:00:00Z') {
  return execFileSync('git', args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  }).toString();
}

function commit(dir: string, files: Record<string, string>, date: string) {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  git(dir, ['add', '--all']);
  git(dir, ['commit', '--quiet', '-m', 'change'], date);
}

/** Runs `list` with no git on PATH: a git process per repository would fail and drop repositories. */
async function withoutGit<T>(list: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = mkdtempSync(path.join(tmpdir(), 'slipway-no-git-'));
  try {
    return await list();
  } finally {
    rmSync(process.env.PATH, { recursive: true, force: true });
    process.env.PATH = saved;
  }
}

/** Day `n` of March 2024, as git and the API write it. */
const day = (n: number) => `2024-03-${String(n).padStart(2, '0')}T12:00:00Z`;

describe('the local repository list, many repositories, without a git process per repository', () => {
  let root: string;
  const repoDir = (index: number) => path.join(root, 'team', `app-${index}`);

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'slipway-repolist-'));
    for (let index = 0; index < COUNT; index++) {
      const dir = repoDir(index);
      mkdirSync(dir, { recursive: true });
      git(dir, ['init', '--quiet', `--initial-branch=${index % 2 ? 'trunk' : 'main'}`]);
      commit(
        dir,
        { 'README.md': `# App number ${index}\n`, [index % 3 ? 'src/main.go' : 'src/app.py']: 'x\n' },
        day(1 + (index % 20)),
      );
      // A newer commit on a nested branch name: the list's date is the newest branch's.
      if (index % 4 === 0) {
        git(dir, ['checkout', '--quiet', '-b', 'feature/deep/x']);
        commit(dir, { 'NOTES.txt': 'n\n' }, day(25));
        git(dir, ['checkout', '--quiet', index % 2 ? 'trunk' : 'main']);
      }
      // Refs and objects packed, as after `git gc`: nothing loose to read.
      if (index % 5 === 0) git(dir, ['gc', '--quiet']);
    }
    // A repository without commits, and a bare one with a description.
    git(root, ['init', '--quiet', '--initial-branch=main', path.join(root, 'team', 'empty')]);
    const bare = path.join(root, 'team', 'bare-one.git');
    git(repoDir(1), ['clone', '--quiet', '--bare', repoDir(1), bare]);
    writeFileSync(path.join(bare, 'description'), 'The bare one\n');
  }, 120_000);

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('answers every repository with its branch, date, language and description, and follows a push', async () => {
    const provider = createLocalRepositoryProvider({ reposDir: root });
    const byName = (list: Repository[]) => new Map(list.map((repo) => [repo.name, repo]));
    const listed = byName(await withoutGit(() => provider.listRepositories(user)));
    expect(listed.size).toBe(COUNT + 2);
    for (let index = 0; index < COUNT; index++) {
      const repo = listed.get(`app-${index}`);
      expect(repo, `app-${index}`).toMatchObject({
        full_name: `team/app-${index}`,
        default_branch: index % 2 ? 'trunk' : 'main',
        description: `App number ${index}`,
        language: index % 3 ? 'Go' : 'Python',
        updated_at: index % 4 === 0 ? day(25) : day(1 + (index % 20)),
      });
    }
    expect(listed.get('bare-one')).toMatchObject({ description: 'The bare one', default_branch: 'trunk' });
    expect(listed.get('empty')).toMatchObject({ description: null, language: null, default_branch: 'main' });

    // A push changes the answer at once: a new README line, a newer date, a new language.
    commit(repoDir(7), { 'README.md': '# Renamed app\n', 'lib/a.rs': 'x\n', 'lib/b.rs': 'y\n' }, day(28));
    git(repoDir(7), ['rm', '--quiet', 'src/main.go']);
    git(repoDir(7), ['commit', '--quiet', '-m', 'rust'], day(28));
    const after = byName(await withoutGit(() => provider.listRepositories(user)));
    expect(after.get('app-7')).toMatchObject({
      description: 'Renamed app',
      updated_at: day(28),
      language: 'Rust',
    });
    expect(after.get('app-8')).toEqual(listed.get('app-8'));

    // A repository removed from the directory leaves the list.
    rmSync(repoDir(3), { recursive: true, force: true });
    expect(byName(await provider.listRepositories(user)).has('app-3')).toBe(false);
  }, 120_000);
});
