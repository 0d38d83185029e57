import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResticCli } from './resticCli.js';
import type { RepositoryLocation } from './resticRepository.js';

const run = promisify(execFile);

/**
 * The S3 path against s3rver, an offline S3-compatible server (npm, a devDependency), on loopback over TLS: over
 * plain HTTP restic's minio-go signs uploads as aws-chunked streams, which s3rver 3.7 stores undecoded (each
 * object then begins with its chunk header). Its certificate is trusted through SSL_CERT_FILE, as an operator's
 * private CA would be; the keys reach restic by environment only.
 */
describe.skipIf(!existsSync('/usr/bin/restic') && process.env.CI !== 'true')(
  'a restic repository on S3',
  () => {
    let dir: string;
    let server: S3rver;
    let location: Extract<RepositoryLocation, { kind: 's3' }>;
    const certFileBefore = process.env.SSL_CERT_FILE;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'slipway-s3-test-'));
      const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
      await run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]);
      server = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: join(dir, 'buckets'),
        key: await readFile(key),
        cert: await readFile(cert),
        configureBuckets: [{ name: 'backups', configs: [] }],
      });
      const { port } = (await server.run()) as unknown as { port: number };
      process.env.SSL_CERT_FILE = cert;
      location = {
        kind: 's3',
        endpoint: `https://127.0.0.1:${port}`,
        bucket: 'backups',
        prefix: 'workspace-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
      };
    }, 60_000);

    afterAll(async () => {
      if (certFileBefore === undefined) delete process.env.SSL_CERT_FILE;
      else process.env.SSL_CERT_FILE = certFileBefore;
      await server?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('is created, stores, lists, gives back, checks and forgets, with the keys never on the command line', async () => {
      const seen = join(dir, 'seen');
      const spy = join(dir, 'restic-spy');
      // Records restic's arguments, and whether the keys came by environment.
      await writeFile(
        spy,
        `#!/bin/sh\nprintf '%s\\n' "$@" >> '${seen}'\n[ "$AWS_SECRET_ACCESS_KEY" = S3RVER ] && echo env-key >> '${seen}'\nexec /usr/bin/restic "$@"\n`,
        { mode: 0o700 },
      );
      const repo = new ResticCli(location, 'an S3 password', {
        binary: spy,
        runtimeDir: join(dir, 'runtime'),
      });
      await repo.ensureInitialised();
      await repo.ensureInitialised();
      const text = (n: number) => Readable.from([Buffer.from(`dump ${n}\n`)]);
      const first = await repo.backupStream(text(1), 'db.sql', ['slipway-workspace-1']);
      const second = await repo.backupStream(text(2), 'db.sql', ['slipway-workspace-1']);
      expect(first.snapshotId).toMatch(/^[0-9a-f]{64}$/);
      expect((await repo.listSnapshots(['slipway-workspace-1'])).map((s) => s.id)).toEqual([
        first.snapshotId,
        second.snapshotId,
      ]);
      const back = repo.dumpStream(first.snapshotId, 'db.sql');
      const chunks: Buffer[] = [];
      for await (const chunk of back.stdout) chunks.push(chunk as Buffer);
      await back.done;
      expect(Buffer.concat(chunks).toString('utf8')).toBe('dump 1\n');
      await repo.check();
      await repo.forget(['slipway-workspace-1'], { daily: 1, weekly: 0, keep: [second.snapshotId] });
      expect((await repo.listSnapshots()).map((s) => s.id)).toEqual([second.snapshotId]);

      const recorded = await readFile(seen, 'utf8');
      expect(recorded).toContain('env-key');
      expect(recorded).not.toContain('S3RVER');
      expect(recorded).not.toContain('an S3 password');
    }, 120_000);
  },
);
