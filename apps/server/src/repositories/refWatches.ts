import type { Logger } from 'pino';

/** Calls back when a local repository's refs move; answers a function that stops watching. */
export type WatchLocalRefs = (owner: string, repo: string, onChange: () => void) => Promise<() => void>;

/** With the refs watched, every repository's refs are still read this often: a change the kernel did not tell of. */
export const REFS_FULL_READ_MS = 30_000;

export interface WatchedRepository {
  repoOwner: string;
  repoName: string;
}

export const repositoryKey = (repository: WatchedRepository) =>
  `${repository.repoOwner}/${repository.repoName}`;

/**
 * The kernel's watches (inotify, localGit.ts watchLocalRefs) on the refs of the local repositories a loop cares
 * about, one per repository however many workspaces use it: what lets the loop read a repository's refs when
 * they moved instead of every tick. A repository is "moved" from its first watch (nothing was read before it)
 * and after each change, until the loop takes the set.
 */
export function createRefWatches(watch: WatchLocalRefs, onChange: () => void, logger: Logger) {
  const watches = new Map<string, Promise<(() => void) | undefined>>();
  let moved = new Set<string>();

  return {
    /** Watches exactly these repositories: new ones are watched (and count as moved), the others let go. */
    keep(repositories: WatchedRepository[]) {
      const wanted = new Map(repositories.map((repository) => [repositoryKey(repository), repository]));
      for (const [key, stop] of watches) {
        if (wanted.has(key)) continue;
        watches.delete(key);
        void stop.then((end) => end?.());
      }
      for (const [key, repository] of wanted) {
        if (watches.has(key)) continue;
        moved.add(key);
        const watching = watch(repository.repoOwner, repository.repoName, () => {
          moved.add(key);
          onChange();
        }).catch((error: unknown) => {
          // Not there (yet): the next keep tries again, and the loop's slow pass reads it meanwhile.
          logger.debug({ err: error, repository: key }, 'refs not watchable');
          watches.delete(key);
          return undefined;
        });
        watches.set(key, watching);
      }
    },
    /** The repositories whose refs moved since the last call (a change while they are read counts for the next). */
    takeMoved(): Set<string> {
      const taken = moved;
      moved = new Set();
      return taken;
    },
    stop() {
      for (const stop of watches.values()) void stop.then((end) => end?.());
      watches.clear();
    },
  };
}

export type RefWatches = ReturnType<typeof createRefWatches>;

/**
 * Which of a loop's workspaces to read on this pass: with the refs watched, those whose repository's refs moved,
 * and every one of them (their list read again) every REFS_FULL_READ_MS or after `refresh`; without a watch,
 * all of them, listed again, every pass. Deploy on push and the preview deployer read local refs this way.
 */
export function createRefScan<T extends WatchedRepository>(options: {
  list: () => Promise<T[]>;
  watch: WatchLocalRefs | undefined;
  onChange?: () => void;
  logger: Logger;
}) {
  const refs = options.watch
    ? createRefWatches(options.watch, options.onChange ?? (() => {}), options.logger)
    : undefined;
  let kept: T[] = [];
  let listedAt = Number.NEGATIVE_INFINITY;
  return {
    async due(): Promise<T[]> {
      const all = !refs || Date.now() - listedAt >= REFS_FULL_READ_MS;
      if (all) {
        kept = await options.list();
        listedAt = Date.now();
      }
      refs?.keep(kept);
      const moved = refs?.takeMoved() ?? new Set<string>();
      return all ? kept : kept.filter((item) => moved.has(repositoryKey(item)));
    },
    /** The list changed here (a switch turned on or off): the next pass reads it again, and everything. */
    refresh() {
      listedAt = Number.NEGATIVE_INFINITY;
    },
    stop() {
      refs?.stop();
    },
  };
}
