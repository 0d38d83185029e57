import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * What a repository's refs say, read from the files git keeps them in (HEAD, loose refs under refs/heads,
 * packed-refs) without running git: listing hundreds of repositories costs file reads, not processes.
 */
export interface BranchRefs {
  /** The branch HEAD names (`main` for `ref: refs/heads/main`), undefined when HEAD is detached or unreadable. */
  head: string | undefined;
  /** Branch name → commit SHA, sorted by name. */
  branches: Map<string, string>;
}

async function readText(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch(() => undefined);
}

/** `packed-refs`: `<sha> <refname>` lines; `#` headers and `^<sha>` peeled lines are skipped. */
function packedBranches(text: string | undefined, into: Map<string, string>) {
  for (const line of (text ?? '').split('\n')) {
    const space = line.indexOf(' ');
    if (space === -1 || line.startsWith('#') || line.startsWith('^')) continue;
    const sha = line.slice(0, space);
    const name = line.slice(space + 1).trim();
    if (SHA.test(sha) && name.startsWith('refs/heads/')) into.set(name.slice('refs/heads/'.length), sha);
  }
}

/** Loose refs under refs/heads (nested for names with slashes); they win over packed ones. */
async function looseBranches(gitDir: string, into: Map<string, string>) {
  const headsDir = path.join(gitDir, 'refs', 'heads');
  const entries = await readdir(headsDir, { recursive: true, withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.lock'))
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const sha = (await readText(file))?.trim();
        // A symbolic ref inside refs/heads is left to git; every other loose ref is a SHA.
        if (sha && SHA.test(sha)) into.set(path.relative(headsDir, file).split(path.sep).join('/'), sha);
      }),
  );
}

export async function readBranchRefs(gitDir: string): Promise<BranchRefs> {
  const [headText, packedText] = await Promise.all([
    readText(path.join(gitDir, 'HEAD')),
    readText(path.join(gitDir, 'packed-refs')),
  ]);
  const branches = new Map<string, string>();
  packedBranches(packedText, branches);
  await looseBranches(gitDir, branches);
  const symbolic = headText?.match(/^ref: refs\/heads\/(.+)$/m)?.[1]?.trim();
  return {
    head: symbolic,
    branches: new Map([...branches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
