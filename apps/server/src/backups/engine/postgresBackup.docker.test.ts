import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execText } from '../../infra/docker/containerExec.js';
import type { ResticCli } from '../../infra/restic/resticCli.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import { ensureDatabaseImages, restoreThroughEngine, TestProject } from '../../test/backupTestKit.js';
import { describeWith } from '../../test/services.js';
import type { BackupEngine, ServiceData } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { createDockerBackupEngine } from './dockerBackupEngine.js';
import { waitUntil } from './streamedPart.js';

const run = promisify(execFile);

describeWith('docker')('backing up a PostgreSQL service', () => {
  const project = new TestProject();
  let engine: BackupEngine;
  let repo: ResticRepository;
  let postgres: string;
  let data: ServiceData;

  const psql = (sql: string, database = 'shop') =>
    execText(project.docker, postgres, [
      'psql',
      '-X',
      '-A',
      '-t',
      '-v',
      'ON_ERROR_STOP=1',
      '-U',
      'postgres',
      '-d',
      database,
      '-c',
      sql,
    ]);

  beforeAll(async () => {
    await ensureDatabaseImages();
    const dir = await project.tempDir();
    engine = createDockerBackupEngine(project.docker, { stateDir: `${dir}/state` });
    repo = engine.openRepository({ kind: 'local', path: `${dir}/repo` }, 'correct horse battery staple');
    await repo.ensureInitialised();
    postgres = await project.service('db', {
      image: 'local/postgres:15',
      volumes: { pgdata: '/var/lib/postgresql/data' },
    });
    await project.waitForCommand(postgres, [
      'psql',
      '-X',
      '-h',
      '127.0.0.1',
      '-U',
      'postgres',
      '-c',
      'SELECT 1',
    ]);
    await psql('CREATE DATABASE shop', 'postgres');
    await psql(
      'CREATE TABLE items (id int PRIMARY KEY, name text); INSERT INTO items SELECT g, \'item \' || g || E\'\\nline\' FROM generate_series(1, 2500) g; CREATE TABLE "Odd Name" (x int); INSERT INTO "Odd Name" VALUES (1), (2)',
    );
    [data] = (await engine.describeProjectData(project.name)) as [ServiceData];
  });

  afterAll(() => project.remove());

  it('is recognised as PostgreSQL by its image, with its volume', () => {
    expect(data).toMatchObject({
      service: 'db',
      method: 'postgres',
      stopForCopy: false,
      volumes: [
        { volume: 'pgdata', dockerVolume: `${project.name}_pgdata`, path: '/var/lib/postgresql/data' },
      ],
    });
  });

  it('dumps, verifies in a throwaway server, and restores deleted rows', async () => {
    const part = await engine.backUpService(repo, data, ['test']);
    expect(part.fingerprint).toMatchObject({
      kind: 'tables',
      tables: { 'shop/public.items': 2500, 'shop/public."Odd Name"': 2 },
    });
    expect(part.sizeBytes).toBeGreaterThan(0);
    expect(await engine.verifyPart(repo, data, part)).toEqual({ ok: true, checked: '2 tables, 2502 rows' });

    await psql('DELETE FROM items WHERE id > 10');
    await restoreThroughEngine(engine, project.docker, repo, data, part);
    expect((await psql('SELECT count(*) FROM items')).trim()).toBe('2500');
    expect((await psql('SELECT name FROM items WHERE id = 7')).trim()).toBe('item 7\nline');

    // Nothing of the verification is left behind.
    const leftovers = await project.docker.listContainers({
      all: true,
      filters: { label: [`dev.slipway.backup-of=${postgres}`] },
    });
    expect(leftovers).toEqual([]);
  });

  it('stores nothing when the dump fails after it began, and says why', async () => {
    // A role that may connect but not read the roles' table: pg_dumpall writes its header, then fails.
    await psql('CREATE ROLE reader LOGIN', 'postgres');
    const before = await (repo as ResticCli).listSnapshots();
    const reader = { ...data, credentials: { ...data.credentials, POSTGRES_USER: 'reader' } };
    const failure = await engine.backUpService(repo, reader, ['test']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BackupError);
    expect((failure as Error).message).toMatch(
      /^The dump of db failed: pg_dumpall exited with 1: .*permission denied/,
    );
    expect(await (repo as ResticCli).listSnapshots()).toEqual(before);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "says the repository's disk is full, and leaves no dump running in the service",
    async () => {
      const small = await project.tempDir();
      await run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', small]);
      try {
        const full = engine.openRepository({ kind: 'local', path: `${small}/repo` }, 'a password');
        await full.ensureInitialised();
        await psql(
          'CREATE TABLE noise AS SELECT g, md5(g::text) || md5((g * 7)::text) AS text FROM generate_series(1, 120000) g',
        );
        const failure = await engine.backUpService(full, data, ['test']).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(BackupError);
        expect((failure as Error).message).toMatch(/^The disk of the backup repository is full: /);
        await waitUntil(
          async () =>
            (
              await psql(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pg_dump%'",
                'postgres',
              )
            ).trim() === '0',
          async () => {},
          'pg_dumpall ending',
        );
      } finally {
        await psql('DROP TABLE IF EXISTS noise');
        await run('umount', [small]);
      }
    },
  );

  it('refuses a dump of another major version before changing anything', async () => {
    const part = await engine.backUpService(repo, data, ['test']);
    await psql('DELETE FROM items WHERE id = 1');
    const older = { ...part, fingerprint: { kind: 'tables' as const, serverVersion: '14.9', tables: {} } };
    const refusal = await restoreThroughEngine(engine, project.docker, repo, data, older).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as Error).message).toMatch(
      /^The dump of db is from PostgreSQL 14 and the running server is PostgreSQL 15: nothing was changed/,
    );
    expect((await psql('SELECT count(*) FROM items')).trim()).toBe('2499');
  });
});
