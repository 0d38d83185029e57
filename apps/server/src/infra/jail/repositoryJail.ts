import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  opendirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from 'node:fs';
import path from 'node:path';

/**
 * The one place the engine opens files of a checkout. Every path is resolved to its REAL path (symlinks
 * followed, `..` collapsed) and refused unless it lies inside the checkout's real root: a symlink — relative,
 * absolute, or a symlinked directory on the way — cannot lead the server to a host file.
 *
 * Reads are race-free: the real path is opened with O_NOFOLLOW (its last component cannot have become a link)
 * and O_NONBLOCK (a FIFO cannot hang us), then the kernel's own view of the open descriptor
 * (`/proc/self/fd/N`) must still be inside the root, so a directory swapped for a link between the check and
 * the open is caught too. Only then are bytes read, bounded by `maxBytes` (checked with fstat first).
 */
export type JailReason = 'outside' | 'missing' | 'not_a_file' | 'too_large' | 'not_a_directory';

export class JailError extends Error {
  override name = 'JailError';
  /** The reason as a phrase after the path: "points outside the repository". */
  readonly why: string;
  constructor(
    readonly reason: JailReason,
    /** The path as the repository wrote it. */
    readonly given: string,
    readonly detail = '',
  ) {
    const why = {
      outside: 'points outside the repository',
      missing: 'does not exist in the repository',
      not_a_file: 'is not a regular file',
      too_large: `is too large${detail ? ` (${detail})` : ''}`,
      not_a_directory: 'is not a directory',
    }[reason];
    super(`${given} ${why}`);
    this.why = why;
  }
}

/** True when `candidate` (absolute) is `root` or below it. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return (
    relative === '' ||
    (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative))
  );
}

const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

export interface SymlinkEscape {
  /** The link, relative to the repository root. */
  link: string;
  target: string;
}

export interface RepositoryJail {
  /** The checkout's real path. */
  readonly root: string;
  /**
   * The real path of `given` (relative to `from`, an absolute directory inside the root, default the root),
   * refused unless inside. Bind-mount sources resolve through here too.
   */
  resolve(given: string, from?: string): string;
  /** Whether `given` exists at all (a dangling or escaping link counts as existing: resolve() refuses it). */
  exists(given: string, from?: string): boolean;
  /** Reads a regular file inside the checkout, race-free, at most `maxBytes`. */
  readText(given: string, options: { from?: string; maxBytes: number }): string;
  /** Symlinks under `dir` whose targets lie outside the checkout (build contexts); bounded by `maxEntries`. */
  findEscapingLinks(dir: string, options: { maxEntries: number }): SymlinkEscape[];
}

export function openRepositoryJail(checkout: string): RepositoryJail {
  const root = realpathSync(checkout);

  const resolve = (given: string, from = root): string => {
    if (given.includes('\0')) throw new JailError('missing', given);
    const absolute = path.resolve(from, given);
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      // A dangling link still says where it wants to go: judge the link's own target first.
      if (linkEscapes(absolute)) throw new JailError('outside', given);
      if (!isInside(root, absolute)) throw new JailError('outside', given);
      // A missing path may still lie below a directory link out (`conf/x.conf` with `conf -> /etc`).
      if (!isInside(root, realAncestor(absolute))) throw new JailError('outside', given);
      throw new JailError('missing', given);
    }
    if (!isInside(root, real)) throw new JailError('outside', given);
    return real;
  };

  /** The real path of the deepest ancestor of `absolute` that exists. */
  const realAncestor = (absolute: string): string => {
    for (let dir = path.dirname(absolute); ; dir = path.dirname(dir)) {
      try {
        return realpathSync(dir);
      } catch {
        if (dir === path.dirname(dir)) return dir;
      }
    }
  };

  const linkEscapes = (absolute: string): boolean => {
    try {
      if (!lstatSync(absolute).isSymbolicLink()) return false;
      const target = path.resolve(path.dirname(absolute), readlinkSync(absolute));
      return !isInside(root, target);
    } catch {
      return false;
    }
  };

  const readText = (given: string, options: { from?: string; maxBytes: number }): string =>
    readResolved(root, resolve(given, options.from), given, options.maxBytes);

  const findEscapingLinks = (dir: string, options: { maxEntries: number }): SymlinkEscape[] => {
    const start = resolve(dir);
    if (!lstatSync(start).isDirectory()) throw new JailError('not_a_directory', dir);
    const found: SymlinkEscape[] = [];
    const pending = [start];
    let seen = 0;
    while (pending.length > 0) {
      const current = pending.pop()!;
      const handle = opendirSync(current);
      try {
        for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
          if (++seen > options.maxEntries) {
            throw new JailError(
              'too_large',
              path.relative(root, start) || '.',
              `more than ${options.maxEntries} files`,
            );
          }
          const full = path.join(current, entry.name);
          if (entry.isDirectory()) pending.push(full);
          else if (entry.isSymbolicLink()) {
            try {
              resolve(full);
            } catch (error) {
              if (error instanceof JailError && error.reason === 'outside') {
                found.push({ link: path.relative(root, full), target: readlinkSync(full) });
              }
            }
          }
        }
      } finally {
        handle.closeSync();
      }
    }
    return found;
  };

  const exists = (given: string, from = root): boolean => {
    try {
      lstatSync(path.resolve(from, given));
      return true;
    } catch {
      return false;
    }
  };

  return { root, resolve, exists, readText, findEscapingLinks };
}

/**
 * Opens `real` (a path resolve() accepted) without following a link at its end, then checks where the descriptor
 * really leads before reading: whatever was swapped in since the check, the bytes come from inside `root`.
 */
export function readResolved(root: string, real: string, given: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    // ELOOP: the last component became a link after the check.
    throw new JailError((error as NodeJS.ErrnoException).code === 'ELOOP' ? 'outside' : 'missing', given);
  }
  try {
    const opened = openedPath(fd);
    if (opened !== undefined && !isInside(root, opened)) throw new JailError('outside', given);
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new JailError('not_a_file', given);
    const limit = `the limit is ${formatBytes(maxBytes)}`;
    if (stat.size > maxBytes) throw new JailError('too_large', given, `${formatBytes(stat.size)}; ${limit}`);
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw new JailError('too_large', given, limit);
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Where the kernel says an open descriptor leads (Linux); undefined where /proc is not available. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}
