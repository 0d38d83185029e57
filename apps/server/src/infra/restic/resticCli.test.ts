import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResticCli } from './resticCli.js';
import { ResticError } from './resticErrors.js';

const execFileAsync = promisify(execFile);

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

// restic is installed by scripts/services.sh (Debian's package); without it there is nothing to test.
describe.skipIf(!existsSync('/usr/bin/restic') && process.env.CI !== 'true')('a restic repository', () => {
  let dir: string;
  let path: string;
  let runtimeDir: string;
  const password = 'the "right" password; $(not run)';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slipway-restic-test-'));
    path = join(dir, 'repo');
    runtimeDir = join(dir, 'runtime');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is created on first use, stores a stream and gives it back', async () => {
    const repo = new ResticCli({ kind: 'local', path }, password, { runtimeDir });
    await repo.ensureInitialised();
    await repo.ensureInitialised();
    const stored = await repo.backupStream(Readable.from([Buffer.from('hello backup\n')]), 'db.sql', [
      'ws-1',
      'part',
    ]);
    expect(stored).toMatchObject({ sizeBytes: 13 });
    expect(stored.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    const back = repo.dumpStream(stored.snapshotId, 'db.sql');
    expect(await read(back.stdout)).toBe('hello backup\n');
    await back.done;
    await repo.check();
  });

  it('says so when the password does not match', async () => {
    const wrong = new ResticCli({ kind: 'local', path }, 'not the password', { runtimeDir });
    const refusal = await wrong
      .backupStream(Readable.from([Buffer.from('x')]), 'x.sql', [])
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ResticError);
    expect((refusal as Error).message).toMatch(/^The backup repository's password does not match: /);
  });

  it('keeps the password off the command line and out of the environment, and leaves no file behind', async () => {
    const seen = join(dir, 'seen');
    const spy = join(dir, 'restic-spy');
    // Records what restic was given: its arguments, its environment, where its password file is, and its bytes.
    await writeFile(
      spy,
      `#!/bin/sh\nprintf '%s\\n' "$@" >> '${seen}'\nenv >> '${seen}.env'\nreadlink /proc/$$/fd/3 >> '${seen}.where'\ncat /dev/fd/3 > '${seen}.password'\nexec /usr/bin/restic "$@"\n`,
      { mode: 0o700 },
    );
    const repo = new ResticCli({ kind: 'local', path }, password, { runtimeDir, binary: spy });
    await repo.ensureInitialised();
    const stored = await repo.backupStream(Readable.from([Buffer.from('x')]), 'x.sql', []);
    await repo.removeSnapshots([stored.snapshotId]);
    const recorded = await readFile(seen, 'utf8');
    expect(recorded).toContain('backup');
    expect(recorded).toContain('/dev/fd/3');
    expect(recorded).not.toContain(password);
    expect(await readFile(`${seen}.env`, 'utf8')).not.toContain(password);
    // The file restic reads its password from was unlinked before restic started.
    const where = (await readFile(`${seen}.where`, 'utf8')).trim().split('\n');
    expect(where).toHaveLength(2);
    for (const line of where) expect(line).toMatch(/ \(deleted\)$/);
    expect(await readFile(`${seen}.password`, 'utf8')).toBe(password);
    // Nothing is left in the runtime directory: no key, no record of a process that has ended.
    expect(await readdir(join(runtimeDir, 'keys'))).toEqual([]);
    expect(await readdir(join(runtimeDir, 'processes'))).toEqual([]);
  });

  it('removes snapshots outside the retention, but never the ones to keep', async () => {
    const repo = new ResticCli({ kind: 'local', path }, password, { runtimeDir });
    await repo.ensureInitialised();
    const ids = [];
    for (const text of ['a', 'b', 'c']) {
      ids.push(
        (await repo.backupStream(Readable.from([Buffer.from(text)]), 'keep.sql', ['retention'])).snapshotId,
      );
    }
    await repo.forget(['retention'], { daily: 1, weekly: 0, keep: [ids[0]!] });
    const left = [];
    for (const id of ids) {
      const run = repo.dumpStream(id, 'keep.sql');
      left.push(
        await run.done.then(
          () => id,
          () => null,
        ),
      );
    }
    expect(left).toEqual([ids[0], null, ids[2]]);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'says the disk is full when it is, and keeps what it stored before',
    async () => {
      const small = join(dir, 'small-disk');
      await mkdir(small);
      await execFileAsync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', small]);
      try {
        const repo = new ResticCli({ kind: 'local', path: join(small, 'repo') }, password, { runtimeDir });
        await repo.ensureInitialised();
        const first = await repo.backupStream(Readable.from([Buffer.from('kept')]), 'first.sql', []);
        const failure = await repo
          .backupStream(Readable.from([randomBytes(6 * 1024 * 1024)]), 'big.sql', [])
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ResticError);
        expect((failure as Error).message).toMatch(
          /^The disk of the backup repository is full: .*no space left on device/,
        );
        const back = repo.dumpStream(first.snapshotId, 'first.sql');
        expect(await read(back.stdout)).toBe('kept');
      } finally {
        await execFileAsync('umount', [small]);
      }
    },
  );

  it('fails its check with a sentence when the repository was tampered with', async () => {
    const repo = new ResticCli({ kind: 'local', path }, password, { runtimeDir });
    await repo.ensureInitialised();
    await repo.backupStream(Readable.from([Buffer.from('to be tampered with')]), 'tampered.sql', []);
    const data = join(path, 'data');
    for (const sub of await readdir(data)) {
      for (const pack of await readdir(join(data, sub))) {
        const file = join(data, sub, pack);
        await chmod(file, 0o600);
        await writeFile(file, Buffer.alloc((await stat(file)).size, 0x5a));
      }
    }
    const failure = await repo.check().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ResticError);
    expect((failure as Error).message).toMatch(/^The backup repository failed its integrity check: /);
  });
});
