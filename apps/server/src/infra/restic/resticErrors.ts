/**
 * A restic failure as a sentence an operator can act on (restic never prints the password or keys).
 * `damaged`: the repository's data is gone or corrupt — what was stored cannot be read back as it was written.
 */
export class ResticError extends Error {
  override name = 'ResticError';
  constructor(
    message: string,
    readonly damaged = false,
  ) {
    super(message);
  }
}

/** restic's last meaningful line, for the end of a sentence. */
export function resticDetail(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^Fatal:\s*/, '').trim())
    .filter((line) => line && !line.startsWith('{'));
  const fatal = lines.find((line) =>
    /wrong password|no space left|read-only file system|repository contains errors|not found|does not exist/i.test(
      line,
    ),
  );
  return (fatal ?? lines.at(-1) ?? 'restic gave no reason').slice(0, 300);
}

/** The repository does not exist yet (first backup of a workspace): `restic init` makes it. */
export function isMissingRepository(stderr: string): boolean {
  return /unable to open config file|Is there a repository at the following location|repository does not exist|The specified bucket does not exist/i.test(
    stderr,
  );
}

/** Another restic holds the repository's lock. */
export const isLocked = (stderr: string) => /repository is already locked/i.test(stderr);

/** restic's failures as sentences. */
export function resticError(stderr: string, action: string): ResticError {
  const detail = resticDetail(stderr);
  if (/wrong password or no key found/i.test(stderr)) {
    return new ResticError(`The backup repository's password does not match: ${detail}`);
  }
  if (/no space left on device|disk quota exceeded|ENOSPC/i.test(stderr)) {
    return new ResticError(`The disk of the backup repository is full: ${detail}`);
  }
  if (/read-only file system|EROFS/i.test(stderr)) {
    return new ResticError(`The backup repository is read-only: ${detail}`);
  }
  if (
    /repository contains errors|Pack ID does not match|invalid data returned|ciphertext verification failed|pack .* contains \d+ errors|unexpected EOF|load .*: .*verification|pack .* (does not exist|not found)|(blob|pack|tree) [0-9a-f]+ (not found|is missing)|ReadFull\(<data\/|loading tree for snapshot .* failed|\/data\/[0-9a-f]{2}\/[0-9a-f]{64}: no such file|id [0-9a-f]+ not found/i.test(
      stderr,
    )
  ) {
    return new ResticError(`The backup repository failed its integrity check: ${detail}`, true);
  }
  if (isMissingRepository(stderr)) {
    return new ResticError(`The backup repository does not exist: ${detail}`);
  }
  if (isLocked(stderr)) {
    return new ResticError(`The backup repository is busy with another operation: ${detail}`);
  }
  if (
    /connection refused|no such host|dial tcp|i\/o timeout|network is unreachable|ssh: |unable to start the sftp session|Connection closed|Could not resolve|Host key verification failed|Permission denied \(publickey/i.test(
      stderr,
    )
  ) {
    return new ResticError(`The backup repository cannot be reached: ${detail}`);
  }
  return new ResticError(`restic could not ${action}: ${detail}`);
}
