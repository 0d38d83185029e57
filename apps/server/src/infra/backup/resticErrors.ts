import { BackupError } from './backupEngine.js';

/** restic's last meaningful line, for the end of a sentence (restic never prints the password or keys). */
export function resticDetail(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^Fatal:\s*/, '').trim())
    .filter((line) => line && !line.startsWith('{'));
  const fatal = lines.find((line) => /wrong password|no space left|repository contains errors/i.test(line));
  return (fatal ?? lines.at(-1) ?? 'restic gave no reason').slice(0, 300);
}

/** The repository does not exist yet (first backup of a workspace): `restic init` makes it. */
export function isMissingRepository(stderr: string): boolean {
  return /unable to open config file|Is there a repository at the following location|repository does not exist|The specified bucket does not exist/i.test(
    stderr,
  );
}

/** restic's failures as sentences an operator can act on. */
export function resticError(stderr: string, action: string): BackupError {
  const detail = resticDetail(stderr);
  if (/wrong password or no key found/i.test(stderr)) {
    return new BackupError(`The backup repository's password does not match: ${detail}`);
  }
  if (/no space left on device|disk quota exceeded|ENOSPC/i.test(stderr)) {
    return new BackupError(`The disk of the backup repository is full: ${detail}`);
  }
  if (
    /repository contains errors|Pack ID does not match|invalid data returned|ciphertext verification failed|pack .* contains \d+ errors|unexpected EOF|load .*: .*verification/i.test(
      stderr,
    )
  ) {
    return new BackupError(`The backup repository failed its integrity check: ${detail}`);
  }
  if (isMissingRepository(stderr)) {
    return new BackupError(`The backup repository does not exist: ${detail}`);
  }
  if (/repository is already locked/i.test(stderr)) {
    return new BackupError(`The backup repository is busy with another operation: ${detail}`);
  }
  if (
    /connection refused|no such host|dial tcp|i\/o timeout|network is unreachable|ssh: |unable to start the sftp session|Connection closed|Could not resolve|Host key verification failed|Permission denied \(publickey/i.test(
      stderr,
    )
  ) {
    return new BackupError(`The backup repository cannot be reached: ${detail}`);
  }
  return new BackupError(`restic could not ${action}: ${detail}`);
}
