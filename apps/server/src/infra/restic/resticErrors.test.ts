import { describe, expect, it } from 'vitest';
import { resticError } from './resticErrors.js';

describe("restic's failures as sentences", () => {
  it('calls a backup whose data is gone or corrupt damaged, by what restic 0.14 prints', () => {
    const missingPack =
      'loading tree for snapshot "9abb00fb" failed: ReadFull(<data/59412b2feb>): open /srv/backups/w/data/59/59412b2febc26eaaca6ac85bf49a1022739a27d4b9aaef16b99da1ef0d19000e: no such file or directory';
    const corrupt = 'Fatal: pack 59412b2f contains 3 errors: [blob 0: ciphertext verification failed]';
    for (const stderr of [missingPack, corrupt]) {
      const error = resticError(stderr, 'read the backup');
      expect(error.damaged).toBe(true);
      expect(error.message).toMatch(/^The backup repository failed its integrity check: /);
    }
  });

  it('names a full, read-only, busy or wrongly locked repository, none of them damaged', () => {
    const cases: [string, RegExp][] = [
      ['Fatal: unable to save snapshot: write /r/data/x: no space left on device', /is full/],
      ['Fatal: create lock: open /r/locks/x: read-only file system', /is read-only/],
      ['Fatal: unable to create lock in backend: repository is already locked by PID 7', /is busy/],
      ['Fatal: wrong password or no key found', /password does not match/],
    ];
    for (const [stderr, sentence] of cases) {
      const error = resticError(stderr, 'write the backup');
      expect(error.message).toMatch(sentence);
      expect(error.damaged).toBe(false);
    }
  });
});
