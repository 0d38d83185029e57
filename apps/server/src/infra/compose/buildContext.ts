import { lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import dockerignore from '@balena/dockerignore';
import tar from 'tar-fs';
import { COMPOSE_LIMITS } from './composeLimits.js';

/**
 * The build context as the engine receives it, packed the way Compose v1 (docker-py) and the docker CLI pack it:
 * the context directory as a tar, without what its `.dockerignore` excludes, links kept as links (never
 * followed), the Dockerfile always included. A Dockerfile outside the context goes in under a name of its own
 * (docker-py's `.dockerfile.{random}`), so the engine reads it from the tar like any other.
 */
export interface PackedContext {
  stream: Readable;
  /** The Dockerfile's path inside the tar, as the engine's `dockerfile` parameter takes it. */
  dockerfile: string;
}

const toTarPath = (relative: string) => relative.split(path.sep).join('/');

/** A context the server will not pack; the message says why in a user's words. */
export class BuildContextError extends Error {}

/** The context's `.dockerignore` lines (none without one); one over the limit is refused, not read. */
function readIgnorePatterns(context: string): string[] {
  const file = path.join(context, '.dockerignore');
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return [];
  if (stat.size > COMPOSE_LIMITS.dockerignoreBytes) {
    throw new BuildContextError(
      `its .dockerignore is larger than the limit of ${COMPOSE_LIMITS.dockerignoreBytes / 1024} KiB`,
    );
  }
  return readFileSync(file, 'utf8').split(/\r?\n/);
}

/**
 * Packs `context` (an absolute, checked path) with `dockerfile` (relative to the context or absolute; already
 * checked to be inside the repository by the compose policy).
 */
export function packBuildContext(context: string, dockerfile: string): PackedContext {
  const absoluteDockerfile = path.resolve(context, dockerfile);
  const relativeDockerfile = path.relative(context, absoluteDockerfile);
  const inside = !relativeDockerfile.startsWith('..') && !path.isAbsolute(relativeDockerfile);
  const patterns = readIgnorePatterns(context);
  const ignored = dockerignore.default().add(patterns);
  // An exception (`!pattern`) may bring back a file inside an excluded directory: then excluded directories
  // are walked (their entries go in, empty) and only the files the patterns exclude stay out.
  const hasExceptions = patterns.some((line) => line.trim().startsWith('!'));
  const dockerfileInTar = inside ? toTarPath(relativeDockerfile) : '.dockerfile.slipway';
  const excluded = (absolute: string) => {
    const relative = toTarPath(path.relative(context, absolute));
    if (relative === '' || relative === dockerfileInTar) return false;
    // The Dockerfile's own directories stay, whatever the patterns say.
    if (inside && dockerfileInTar.startsWith(`${relative}/`)) return false;
    if (!ignored.ignores(relative)) return false;
    return !hasExceptions || !isDirectory(absolute);
  };
  const outside = inside ? undefined : readFileSync(absoluteDockerfile);
  const stream = tar.pack(context, {
    ignore: excluded,
    finalize: outside === undefined,
    finish: (pack) => {
      if (outside === undefined) return;
      pack.entry({ name: dockerfileInTar, mode: 0o644 }, outside);
      pack.finalize();
    },
  });
  return { stream, dockerfile: dockerfileInTar };
}

function isDirectory(absolute: string): boolean {
  try {
    return lstatSync(absolute).isDirectory();
  } catch {
    return false;
  }
}
