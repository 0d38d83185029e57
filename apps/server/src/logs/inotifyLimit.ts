import { readFileSync } from 'node:fs';

/** Where Linux keeps the number of inotify instances one user may hold. */
const LIMIT_FILE = '/proc/sys/fs/inotify/max_user_instances';
/** Left for everything else on the machine that watches files (Slipway's own ref watches, systemd, …). */
const HEADROOM = 16;

/**
 * Docker follows each container's log for a follower (here: one per container, the log collector's) with an
 * inotify instance of its own; past the machine's `fs.inotify.max_user_instances` (128 on Debian) it falls back
 * to polling the log file every 200 ms, and every line of those containers reaches viewers up to 200 ms later.
 * Measured with bench/scale.ts: 1,000 viewers' p99 was ~100 ms with 10 workspaces and ~250 ms with 200 on one
 * engine. Answers the sentence to log when `followed` containers come near the limit, or undefined.
 */
export function inotifyWarning(followed: number, readLimit = () => readFileSync(LIMIT_FILE, 'utf8')) {
  let limit: number;
  try {
    limit = Number.parseInt(readLimit(), 10);
  } catch {
    return undefined; // not Linux, or not readable: nothing to say
  }
  if (!Number.isFinite(limit) || followed < limit - HEADROOM) return undefined;
  return `${followed} container logs are followed on this engine and fs.inotify.max_user_instances is ${limit}: past it Docker polls each further log every 200 ms, so log lines reach viewers late. Raise it on the engine's machine: sysctl -w fs.inotify.max_user_instances=8192 (and in /etc/sysctl.d to keep it).`;
}
