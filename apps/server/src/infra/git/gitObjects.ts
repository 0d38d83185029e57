import * as fs from 'node:fs';

/** README files larger than this are not read (GitHub stops inlining file contents at 1 MB too). */
const MAX_README_BYTES = 1024 * 1024;

export interface CommitSummary {
  /** The newest committer date among the given commits; undefined when none could be read. */
  updatedAt: Date | undefined;
  /** Every file path in the commit's tree (for language detection). */
  files: string[];
  /** The text of a README at the root of the tree, if there is one under 1 MB. */
  readme: string | undefined;
}

const README = /^readme(\.[a-z]+)?$/i;

/**
 * Reads what a repository list shows from git's object database with isomorphic-git (loose objects and packs
 * alike), inside this process: no git process per repository. Only reads objects; nothing in the repository
 * (hooks, config) runs. The library is imported on first use, so a server that never lists local repositories
 * never loads it.
 */
export async function summarizeCommit(
  gitDir: string,
  tips: string[],
  commit: string,
): Promise<CommitSummary> {
  const git = await import('isomorphic-git');
  // One cache per repository read: the pack indexes are parsed once for all of the calls below.
  const cache = {};
  const dates = await Promise.all(
    [...new Set(tips)].map((oid) =>
      git.readCommit({ fs, gitdir: gitDir, oid, cache }).then(
        ({ commit: read }) => read.committer.timestamp,
        () => undefined,
      ),
    ),
  );
  const newest = Math.max(...dates.filter((date): date is number => date !== undefined));
  const [files, root] = await Promise.all([
    git.listFiles({ fs, gitdir: gitDir, ref: commit, cache }),
    git.readTree({ fs, gitdir: gitDir, oid: commit, cache }),
  ]);
  const entry = root.tree.find((item) => item.type === 'blob' && README.test(item.path));
  let readme: string | undefined;
  if (entry) {
    const { blob } = await git.readBlob({ fs, gitdir: gitDir, oid: entry.oid, cache });
    if (blob.byteLength <= MAX_README_BYTES) readme = Buffer.from(blob).toString('utf8');
  }
  return { updatedAt: Number.isFinite(newest) ? new Date(newest * 1000) : undefined, files, readme };
}
