import { type FSWatcher, watch } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Calls `onChange` when an entry under `root` is created, replaced, renamed or removed: one non-recursive watch
 * (inotify) per directory of the tree, each re-armed when its directory is replaced.
 *
 * Why not `fs.watch(root, { recursive: true })`: on Linux, Node 20 builds that from a watch on every FILE, and a
 * watch on a file follows its inode. git never rewrites a ref in place — it writes `main.lock` and renames it over
 * `main` — so the watch on `main` ended with the first push, and later pushes were seen only by the slow full read
 * (issue 39: 12–30 s in 5 of 9 pushes). A directory's watch sees every rename into it, for as long as the directory
 * lives; a directory git removes (`refs/heads/pr/` once its last branch goes, or `git pack-refs` prunes it) and
 * makes again is a new inode, watched anew.
 */
export function watchDirectoryTree(
  root: string,
  onChange: () => void,
): { ready: Promise<void>; close(): void } {
  const watched = new Map<string, { watcher: FSWatcher; inode: number }>();
  let closed = false;

  /** Stops watching `dir` and every directory below it. */
  function drop(dir: string) {
    for (const [watchedDir, { watcher }] of watched) {
      if (watchedDir === dir || watchedDir.startsWith(`${dir}${path.sep}`)) {
        watcher.close();
        watched.delete(watchedDir);
      }
    }
  }

  async function inodeOfDirectory(dir: string): Promise<number | undefined> {
    const info = await lstat(dir).catch(() => undefined);
    return info?.isDirectory() ? info.ino : undefined;
  }

  /** Watches `dir` (anew when it was replaced) and every directory below it that is not watched yet. */
  async function arm(dir: string): Promise<void> {
    const inode = await inodeOfDirectory(dir);
    if (closed || inode === undefined) return;
    const current = watched.get(dir);
    if (current?.inode !== inode) {
      if (current) drop(dir);
      let watcher: FSWatcher;
      try {
        watcher = watch(dir, { persistent: false }, (_event, name) => {
          // A lock file is git's draft of a ref: the rename that replaces the ref is the change.
          if (typeof name === 'string' && name.endsWith('.lock')) return;
          onChange();
          void settle(dir, typeof name === 'string' ? name : undefined);
        });
      } catch {
        return; // gone between the look and the watch: its parent's event says so
      }
      // A watched directory removed ends its watch; its parent's event says what became of it.
      watcher.on('error', () => drop(dir));
      watched.set(dir, { watcher, inode });
    }
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.filter((entry) => entry.isDirectory()).map((entry) => arm(path.join(dir, entry.name))),
    );
  }

  /**
   * After an event in `dir` about `name` (undefined: the kernel did not say): a directory that appeared, or was
   * replaced, is watched — and read once more, for refs written into it before its watch began — and one that
   * went is let go.
   */
  async function settle(dir: string, name: string | undefined) {
    const child = name === undefined ? dir : path.join(dir, name);
    const inode = await inodeOfDirectory(child);
    if (inode === undefined) {
      if (child !== dir) drop(child);
      return;
    }
    const known = watched.get(child)?.inode === inode;
    if (known && child !== dir) return;
    await arm(child);
    if (!known) onChange();
  }

  const ready = arm(root);
  return {
    ready,
    close() {
      closed = true;
      drop(root);
    },
  };
}
