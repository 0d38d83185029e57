import type { JailError } from '../jail/repositoryJail.js';
import type { PolicyViolation } from './policyViolation.js';

/**
 * How a file or path a compose file names is refused: the service (or the file), the key, the path as written,
 * and why. Shared by the reader (composeReader.ts: env_file, label_file, extends, include — checked before the
 * Compose CLI reads anything) and the sandbox rules (composePolicy.ts).
 */
export function jailViolation(
  service: string | null,
  key: string,
  given: string,
  error: JailError,
): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return { service, key, message: `${subject} uses ${key}: ${given}, which ${error.why}` };
}

export function refused(
  service: string | null,
  key: string,
  shown: string,
  why = 'is not allowed',
): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return { service, key, message: `${subject} uses ${key}: ${shown}, which ${why}` };
}
