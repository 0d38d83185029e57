import { afterAll, beforeAll, expect, it } from 'vitest';
import { execText } from '../../infra/docker/containerExec.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import { ensureDatabaseImages, restoreThroughEngine, TestProject } from '../../test/backupTestKit.js';
import { describeWith } from '../../test/services.js';
import type { BackupEngine, ServiceData } from './backupEngine.js';
import { createDockerBackupEngine } from './dockerBackupEngine.js';

describeWith('docker')('backing up a Redis service', () => {
  const project = new TestProject();
  let engine: BackupEngine;
  let repo: ResticRepository;
  let redis: string;
  let data: ServiceData;
  const cli = (...args: string[]) =>
    execText(project.docker, redis, ['redis-cli', ...args]).then((out) => out.trim());

  beforeAll(async () => {
    await ensureDatabaseImages();
    const dir = await project.tempDir();
    engine = createDockerBackupEngine(project.docker, { stateDir: `${dir}/state` });
    repo = engine.openRepository({ kind: 'local', path: `${dir}/repo` }, 'a redis password');
    await repo.ensureInitialised();
    redis = await project.service('cache', { image: 'local/redis:7', volumes: { redisdata: '/data' } });
    await project.waitForCommand(redis, ['redis-cli', 'PING']);
    for (let i = 0; i < 50; i++) await cli('SET', `key:${i}`, `value ${i}`);
    await cli('-n', '2', 'SET', 'other-db', 'x');
    [data] = (await engine.describeProjectData(project.name)) as [ServiceData];
  });

  afterAll(() => project.remove());

  it('snapshots with BGSAVE, verifies in a throwaway Redis, and restores flushed keys', async () => {
    expect(data).toMatchObject({ service: 'cache', method: 'redis' });
    const part = await engine.backUpService(repo, data, ['test']);
    expect(part.fingerprint).toEqual({ kind: 'keys', keys: 51 });
    expect(await engine.verifyPart(repo, data, part)).toEqual({ ok: true, checked: '51 keys' });

    await cli('FLUSHALL');
    await cli('SET', 'after-backup', 'gone after the restore');
    await restoreThroughEngine(engine, project.docker, repo, data, part);
    expect(await cli('GET', 'key:7')).toBe('value 7');
    expect(await cli('EXISTS', 'after-backup')).toBe('0');
    expect(await project.state(redis)).toMatchObject({ Running: true, Paused: false });
  });
});
