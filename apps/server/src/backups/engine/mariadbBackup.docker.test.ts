import { afterAll, beforeAll, expect, it } from 'vitest';
import { execText } from '../../infra/docker/containerExec.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import { ensureDatabaseImages, restoreThroughEngine, TestProject } from '../../test/backupTestKit.js';
import { describeWith } from '../../test/services.js';
import type { BackupEngine, ServiceData } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { createDockerBackupEngine } from './dockerBackupEngine.js';

describeWith('docker')('backing up a MariaDB service', () => {
  const project = new TestProject();
  let engine: BackupEngine;
  let repo: ResticRepository;
  let mariadb: string;
  let data: ServiceData;
  const sql = (statement: string) =>
    execText(project.docker, mariadb, ['mariadb', '-u', 'root', '-N', '-B', '-e', statement], {
      user: '0',
    }).then((out) => out.trim());

  beforeAll(async () => {
    await ensureDatabaseImages();
    const dir = await project.tempDir();
    engine = createDockerBackupEngine(project.docker, { stateDir: `${dir}/state` });
    repo = engine.openRepository({ kind: 'local', path: `${dir}/repo` }, 'a mariadb password');
    await repo.ensureInitialised();
    mariadb = await project.service('mysql', {
      image: 'local/mariadb:10.11',
      volumes: { dbdata: '/var/lib/mysql' },
    });
    await project.waitForCommand(mariadb, ['mariadb', '-u', 'root', '-e', 'SELECT 1'], '0');
    await sql(
      "CREATE DATABASE shop; CREATE TABLE shop.orders (id INT PRIMARY KEY, note TEXT); CREATE TABLE shop.`empty one` (x INT); INSERT INTO shop.orders SELECT seq, CONCAT('it''s (', seq, ')\\n;') FROM shop.seq_1_to_3000",
    );
    [data] = (await engine.describeProjectData(project.name)) as [ServiceData];
  });

  afterAll(() => project.remove());

  it('dumps in one transaction, verifies in a throwaway server, and restores deleted rows', async () => {
    expect(data).toMatchObject({ service: 'mysql', method: 'mysql' });
    const part = await engine.backUpService(repo, data, ['test']);
    expect(part.fingerprint).toMatchObject({
      kind: 'tables',
      tables: { 'shop/orders': 3000, 'shop/empty one': 0 },
    });
    expect(await engine.verifyPart(repo, data, part)).toEqual({ ok: true, checked: '2 tables, 3000 rows' });

    await sql('DELETE FROM shop.orders WHERE id > 5; CREATE DATABASE made_later');
    await restoreThroughEngine(engine, project.docker, repo, data, part);
    expect(await sql('SELECT COUNT(*) FROM shop.orders')).toBe('3000');
    expect(
      await sql("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'made_later'"),
    ).toBe('0');
  });

  it('refuses a dump of another major version before changing anything', async () => {
    const part = await engine.backUpService(repo, data, ['test']);
    await sql('DELETE FROM shop.orders WHERE id = 1');
    const older = {
      ...part,
      fingerprint: { kind: 'tables' as const, serverVersion: '10.6.12-MariaDB', tables: {} },
    };
    const refusal = await restoreThroughEngine(engine, project.docker, repo, data, older).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as Error).message).toMatch(
      /^The dump of mysql is from version 10.6 and the running server is version 10.11/,
    );
    expect(await sql('SELECT COUNT(*) FROM shop.orders')).toBe('2999');
  });
});
