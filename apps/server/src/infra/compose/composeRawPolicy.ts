import path from 'node:path';
import { JailError, type RepositoryJail } from '../jail/repositoryJail.js';
import { COMPOSE_LIMITS, ComposeLimitError, parseComposeText } from './composeLimits.js';
import type { PolicyViolation } from './composePolicy.js';

/**
 * The files `compose config` itself would open — `env_file`, `label_file`, `extends.file` (followed through every
 * file it names) — checked through the repository jail on the RAW file, before the Compose CLI reads anything.
 * A relative path is checked against both the project directory and the directory of the file naming it
 * (Compose v1 and v2 differ), and must stay inside the repository either way. `include` is refused.
 */
type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function jailViolation(
  service: string | null,
  key: string,
  given: string,
  error: JailError,
): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return { service, key, message: `${subject} uses ${key}: ${given}, which ${error.why}` };
}

function refused(
  service: string | null,
  key: string,
  shown: string,
  why = 'is not allowed',
): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return { service, key, message: `${subject} uses ${key}: ${shown}, which ${why}` };
}

/** Paths listed by `env_file` / `label_file`: a string, a list of strings, or `{path, required}` items. */
function listedFiles(value: unknown): { file: string; required: boolean }[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.map((item) =>
    isObj(item)
      ? { file: String(item.path ?? ''), required: item.required !== false }
      : { file: String(item), required: true },
  );
}

interface Walk {
  jail: RepositoryJail;
  found: PolicyViolation[];
  visited: Set<string>;
}

/** Checks `file` (given relative to `dirs`), read through the jail, and the files it names. */
function checkReferencedFile(
  walk: Walk,
  service: string,
  key: string,
  given: string,
  dirs: string[],
  required: boolean,
) {
  if (given.includes('$')) {
    walk.found.push(refused(service, key, given, 'is not allowed (a file path may not use variables)'));
    return undefined;
  }
  let real: string | undefined;
  const errors: JailError[] = [];
  for (const dir of new Set(dirs)) {
    try {
      const resolved = walk.jail.resolve(given, dir);
      real ??= resolved;
    } catch (error) {
      if (!(error instanceof JailError)) throw error;
      errors.push(error);
    }
  }
  const escaping = errors.find((error) => error.reason !== 'missing');
  if (escaping) walk.found.push(jailViolation(service, key, given, escaping));
  else if (real === undefined && required && errors[0])
    walk.found.push(jailViolation(service, key, given, errors[0]));
  if (escaping) return undefined;
  return real;
}

function checkFile(walk: Walk, raw: unknown, fileDir: string, depth: number) {
  if (!isObj(raw)) return;
  const { jail, found } = walk;
  const dirs = [jail.root, fileDir];
  if (raw.include !== undefined) found.push(refused(null, 'include', JSON.stringify(raw.include)));
  if (!isObj(raw.services)) return;
  for (const [name, service] of Object.entries(raw.services)) {
    if (!isObj(service)) continue;
    for (const key of ['env_file', 'label_file'] as const) {
      for (const { file, required } of listedFiles(service[key])) {
        const real = checkReferencedFile(walk, name, key, file, dirs, required);
        if (real === undefined) continue;
        try {
          jail.readText(real, { maxBytes: COMPOSE_LIMITS.envFileBytes });
        } catch (error) {
          if (error instanceof JailError) found.push(jailViolation(name, key, file, error));
          else throw error;
        }
      }
    }
    const extended = isObj(service.extends) ? service.extends.file : undefined;
    if (typeof extended !== 'string') continue;
    const real = checkReferencedFile(walk, name, 'extends.file', extended, dirs, true);
    if (real === undefined || walk.visited.has(real)) continue;
    if (depth >= COMPOSE_LIMITS.extendsDepth) {
      found.push(
        refused(
          name,
          'extends.file',
          extended,
          `is not allowed (more than ${COMPOSE_LIMITS.extendsDepth} files deep)`,
        ),
      );
      continue;
    }
    walk.visited.add(real);
    let text: string;
    try {
      text = jail.readText(real, { maxBytes: COMPOSE_LIMITS.fileBytes });
    } catch (error) {
      if (error instanceof JailError) found.push(jailViolation(name, 'extends.file', extended, error));
      else throw error;
      continue;
    }
    checkFile(walk, parseComposeText(text, extended), path.dirname(real), depth + 1);
  }
}

/**
 * Checks the raw compose file found at the repository root (its text already read through the jail).
 * Throws ComposeLimitError when a file passes a limit.
 */
export function checkRawCompose(jail: RepositoryJail, fileName: string, text: string): PolicyViolation[] {
  const raw = parseComposeText(text, fileName);
  const walk: Walk = { jail, found: [], visited: new Set([path.join(jail.root, fileName)]) };
  checkFile(walk, raw, jail.root, 0);
  return walk.found;
}

export { ComposeLimitError };
