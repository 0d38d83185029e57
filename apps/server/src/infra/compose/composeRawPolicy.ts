import path from 'node:path';
import type { JailError } from '../jail/repositoryJail.js';
import type { PolicyViolation } from './policyViolation.js';

/**
 * A path as every refusal shows it: relative to the repository, never a path of the Slipway host (a refusal
 * reaches the build log, the API and a pull request's comment). The reader makes the relative paths a compose
 * file writes absolute, inside the checkout under DATA_DIR, for the Compose CLI; shown, they are `.`, `./web` or
 * `../other` again. An absolute path that shares no more than its first directory with the checkout (`/etc`,
 * `/var/run/docker.sock`, `/`) is left as it is: it is the compose file's own text, not the host's layout.
 */
export function repositoryPath(root: string, given: string): string {
  if (!path.isAbsolute(given)) return given;
  const relative = path.relative(root, given);
  if (relative === '') return '.';
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`);
  if (!outside) return `.${path.sep}${relative}`;
  const shared = (a: string, b: string) => a.split(path.sep)[1] === b.split(path.sep)[1];
  const deeper = (a: string, b: string) => a.split(path.sep)[2] === b.split(path.sep)[2];
  return shared(root, given) && deeper(root, given) ? relative : given;
}

/**
 * How a file or path a compose file names is refused: the service (or the file), the key, the path shown relative
 * to the repository (`root`, the checkout's real path), and why. Shared by the reader (composeReader.ts:
 * env_file, label_file, extends, include — checked before the Compose CLI reads anything) and the sandbox rules
 * (composePolicy.ts, composeCheck.ts).
 */
export function jailViolation(
  root: string,
  service: string | null,
  key: string,
  given: string,
  error: JailError,
): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return {
    service,
    key,
    message: `${subject} uses ${key}: ${repositoryPath(root, given)}, which ${error.why}`,
  };
}

/** A JailError's own sentence ("compose.yaml points outside the repository"), its path shown as above. */
export const jailRefusal = (root: string, error: JailError) =>
  `${repositoryPath(root, error.given)} ${error.why}`;

export function refused(
  service: string | null,
  key: string,
  shown: string,
  why = 'is not allowed',
): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return { service, key, message: `${subject} uses ${key}: ${shown}, which ${why}` };
}
