import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type Branch,
  type ContentEntry,
  type Contents,
  isValidRepoName,
  type Repository,
} from '@slipway/contract';
import { DomainError, invalid, notFound } from '../domain/errors.js';
import { summarizeCommit } from '../infra/git/gitObjects.js';
import { type BranchRefs, readBranchRefs } from '../infra/git/gitRefs.js';
import { localCloneSource } from './cloneSource.js';
import { detectLanguage } from './languageDetection.js';
import {
  findLocalRepository,
  git,
  gitFailure,
  gitText,
  type LocalRepository,
  openLocalRepository,
} from './localGit.js';
import { normalizeContentsPath } from './repositoryInput.js';
import { byUpdatedAtDesc, type RepositoryProvider } from './repositoryProvider.js';

/** GitHub stops inlining file contents at 1 MB; we answer the same way. */
const MAX_INLINE_BYTES = 1024 * 1024;
const DEFAULT_DESCRIPTION = /^Unnamed repository;/;

interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size: number;
  path: string;
}

/** `git ls-tree -z --long` output: "<mode> <type> <sha> <size>\t<path>\0" (size '-' for trees). */
function parseTree(output: Buffer): TreeEntry[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode = '', type = '', sha = '', size = '-'] = line.slice(0, tab).split(/\s+/);
      return {
        mode,
        type: type as TreeEntry['type'],
        sha,
        size: size === '-' ? 0 : Number(size),
        path: line.slice(tab + 1),
      };
    });
}

/** A stable numeric id, as GitHub's repositories have one. */
const idFor = (owner: string, name: string) =>
  Number.parseInt(createHash('sha256').update(`${owner}/${name}`).digest('hex').slice(0, 12), 16);

async function mapWithLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/**
 * Local mode: a directory of git repositories laid out `{owner}/{repo}` (bare or working copies). Everything
 * is read from git objects, never from the working tree, so a path can only ever name a committed file.
 */
export function createLocalRepositoryProvider(options: { reposDir: string }): RepositoryProvider {
  const root = path.resolve(options.reposDir);

  async function defaultBranch(repo: LocalRepository): Promise<string> {
    const head = await gitText(repo.gitDir, ['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => '');
    return head.trim() || 'main';
  }

  async function resolveCommit(repo: LocalRepository, ref: string): Promise<string | undefined> {
    if (ref.startsWith('-')) throw invalid("A branch name cannot start with '-'");
    const output = await gitText(repo.gitDir, [
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${ref}^{commit}`,
    ]).catch(() => '');
    return output.trim() || undefined;
  }

  /** The first line a person would read: headings unmarked, images and HTML skipped. */
  function firstLine(text: string): string | null {
    const line = text
      .split('\n')
      .map((candidate) => candidate.replace(/^#+\s*/, '').trim())
      .find((candidate) => candidate !== '' && !candidate.startsWith('![') && !candidate.startsWith('<'));
    return line ? line.slice(0, 300) : null;
  }

  /** Computed from git's objects in this process (gitObjects.ts): no git process per repository. */
  async function describeFromObjects(
    repo: LocalRepository,
    refs: BranchRefs,
    branch: string,
    commit: string | undefined,
    descriptionText: string,
  ): Promise<Repository> {
    const summary = commit
      ? await summarizeCommit(repo.gitDir, [...refs.branches.values()], commit)
      : undefined;
    const updatedAt = summary?.updatedAt ?? (await stat(repo.dir)).mtime;
    const description =
      descriptionText.trim() && !DEFAULT_DESCRIPTION.test(descriptionText)
        ? descriptionText.trim()
        : summary?.readme !== undefined
          ? firstLine(summary.readme)
          : null;
    return {
      id: idFor(repo.owner, repo.name),
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      owner: { login: repo.owner, avatar_url: '' },
      private: true,
      description,
      language: summary ? detectLanguage(summary.files) : null,
      stargazers_count: 0,
      updated_at: updatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      default_branch: branch,
      html_url: pathToFileURL(repo.dir).toString(),
    };
  }

  /**
   * Each repository's answer is kept, keyed on what it is computed from: HEAD, every branch's commit and the
   * description file, read from files without running git. A push, a new branch or a new description changes
   * the key; an unchanged repository costs a few file reads, so the list stays fast for hundreds.
   */
  const described = new Map<string, { key: string; repository: Repository }>();

  async function describe(repo: LocalRepository): Promise<Repository> {
    const [refs, descriptionText] = await Promise.all([
      readBranchRefs(repo.gitDir),
      readFile(path.join(repo.gitDir, 'description'), 'utf8').catch(() => ''),
    ]);
    const branch = refs.head ?? 'main';
    const key = JSON.stringify([branch, [...refs.branches], descriptionText]);
    const known = described.get(repo.gitDir);
    if (known?.key === key) return known.repository;
    // A branch git keeps elsewhere (a symbolic ref) is resolved by git itself; a repository without branches
    // has no commit to read.
    const commit =
      refs.branches.get(branch) ??
      (refs.branches.size > 0 ? await resolveCommit(repo, `refs/heads/${branch}`) : undefined);
    const repository = await describeFromObjects(repo, refs, branch, commit, descriptionText);
    // An empty repository's date is its directory's, which no ref tracks: it is not kept.
    if (refs.branches.size > 0) described.set(repo.gitDir, { key, repository });
    return repository;
  }

  function presentEntry(entry: TreeEntry, parent: string): ContentEntry {
    const name = path.posix.basename(entry.path);
    const type: ContentEntry['type'] =
      entry.type === 'tree'
        ? 'dir'
        : entry.type === 'commit'
          ? 'submodule'
          : entry.mode === '120000'
            ? 'symlink'
            : 'file';
    return {
      type,
      name,
      path: parent ? `${parent}/${name}` : name,
      sha: entry.sha,
      size: entry.size,
      html_url: null,
      download_url: null,
    };
  }

  async function fileContents(
    repo: LocalRepository,
    entry: TreeEntry,
    filePath: string,
  ): Promise<ContentEntry> {
    const presented = presentEntry(
      entry,
      path.posix.dirname(filePath) === '.' ? '' : path.posix.dirname(filePath),
    );
    if (presented.type === 'submodule') return presented;
    if (entry.size > MAX_INLINE_BYTES) return { ...presented, encoding: 'none', content: '' };
    const bytes = await git(repo.gitDir, ['cat-file', 'blob', entry.sha], { binary: true });
    if (presented.type === 'symlink') return { ...presented, target: bytes.toString('utf8') };
    return { ...presented, encoding: 'base64', content: bytes.toString('base64') };
  }

  return {
    kind: 'local',

    async listRepositories() {
      const found: LocalRepository[] = [];
      for (const owner of (await subdirectories(root)).filter(isValidRepoName)) {
        for (const dirName of await subdirectories(path.join(root, owner))) {
          const name = dirName.endsWith('.git') ? dirName.slice(0, -4) : dirName;
          if (!isValidRepoName(name)) continue;
          const repo = await openLocalRepository(path.join(root, owner, dirName), owner, name);
          if (repo && !found.some((other) => other.owner === owner && other.name === name)) found.push(repo);
        }
      }
      const listed = await mapWithLimit(found, 4, (repo) => describe(repo).catch(() => undefined));
      // Repositories gone from the directory are forgotten.
      const present = new Set(found.map((repo) => repo.gitDir));
      for (const gitDir of described.keys()) if (!present.has(gitDir)) described.delete(gitDir);
      return listed.filter((repo): repo is Repository => Boolean(repo)).sort(byUpdatedAtDesc);
    },

    async getRepository(_user, owner, repo) {
      const found = await findLocalRepository(root, owner, repo);
      return describe(found).catch((error) => {
        throw gitFailure(error);
      });
    },

    async listBranches(_user, owner, repo, page, perPage) {
      const found = await findLocalRepository(root, owner, repo);
      const output = await gitText(found.gitDir, [
        'for-each-ref',
        '--sort=refname',
        '--format=%(objectname) %(refname)',
        'refs/heads',
      ]).catch((error) => {
        throw gitFailure(error);
      });
      // Ref names cannot hold newlines or control characters, so one ref is one line.
      const branches: Branch[] = output
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const space = line.indexOf(' ');
          return {
            name: line.slice(space + 1).replace(/^refs\/heads\//, ''),
            commit: { sha: line.slice(0, space) },
          };
        });
      return branches.slice((page - 1) * perPage, page * perPage);
    },

    async getContents(_user, owner, repo, rawPath, ref): Promise<Contents> {
      const found = await findLocalRepository(root, owner, repo);
      const contentsPath = normalizeContentsPath(rawPath);
      const commit = await resolveCommit(found, ref ?? `refs/heads/${await defaultBranch(found)}`);
      if (!commit)
        throw notFound(
          ref ? `No branch or commit "${ref}" in ${owner}/${repo}` : `${owner}/${repo} is empty`,
        );
      try {
        if (contentsPath === '') {
          const entries = parseTree(await git(found.gitDir, ['ls-tree', '-z', '--long', commit]));
          return entries.map((entry) => presentEntry(entry, ''));
        }
        const [entry] = parseTree(
          await git(found.gitDir, [
            '--literal-pathspecs',
            'ls-tree',
            '-z',
            '--long',
            '--full-tree',
            commit,
            '--',
            contentsPath,
          ]),
        );
        if (!entry || entry.path !== contentsPath) throw notFound(`No file or folder at "${contentsPath}"`);
        if (entry.type === 'tree') {
          const children = parseTree(await git(found.gitDir, ['ls-tree', '-z', '--long', entry.sha]));
          return children.map((child) => presentEntry(child, contentsPath));
        }
        return await fileContents(found, entry, contentsPath);
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw gitFailure(error);
      }
    },

    async listInstallations() {
      return [];
    },

    cloneSource: (_user, owner, repo) => localCloneSource(root, owner, repo),
  };
}
