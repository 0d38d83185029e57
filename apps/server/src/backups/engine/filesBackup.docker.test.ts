import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execText } from '../../infra/docker/containerExec.js';
import { createThrowawayVolume, removeThrowawayVolume } from '../../infra/docker/throwawayContainers.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import { restoreThroughEngine, TestProject } from '../../test/backupTestKit.js';
import { describeWith } from '../../test/services.js';
import type { BackupEngine, PartResult, ServiceData } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { createDockerBackupEngine, throwawayOwnerOf } from './dockerBackupEngine.js';
import { whileHeld } from './servicesHeld.js';

/** One tar member's header and data (ustar), for archives no tar would write. */
function tarMember(name: string, content: string, type = '0', link = ''): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${Buffer.byteLength(content).toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write(type, 156);
  header.write(link, 157, 100);
  header.write('ustar\0' + '00', 257);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const data = Buffer.alloc(Math.ceil(Buffer.byteLength(content) / 512) * 512);
  data.write(content);
  return Buffer.concat([header, data]);
}

describeWith('docker')('backing up a volume of files', () => {
  const project = new TestProject();
  let engine: BackupEngine;
  let repo: ResticRepository;
  let stateDir: string;
  let app: string;
  let worker: string;
  let services: ServiceData[];
  const sh = (id: string, script: string) => execText(project.docker, id, ['sh', '-c', script]);

  beforeAll(async () => {
    const dir = await project.tempDir();
    stateDir = `${dir}/state`;
    engine = createDockerBackupEngine(project.docker, { stateDir });
    repo = engine.openRepository({ kind: 'local', path: `${dir}/repo` }, 'a files password');
    await repo.ensureInitialised();
    app = await project.service('app', {
      image: 'busybox:1.36',
      cmd: ['sleep', '3600'],
      volumes: { uploads: '/srv/uploads' },
    });
    worker = await project.service('worker', {
      image: 'busybox:1.36',
      cmd: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'],
      volumes: { cache: '/cache' },
      labels: { 'dev.slipway.backup': 'stop' },
    });
    await project.service('web', { image: 'busybox:1.36', cmd: ['sleep', '3600'] });
    await sh(
      app,
      'mkdir -p /srv/uploads/a/b && echo hello > /srv/uploads/a/b/one.txt && head -c 70000 /dev/zero > /srv/uploads/big.bin && ln -s a/b/one.txt /srv/uploads/link',
    );
    await sh(worker, 'echo cached > /cache/c.txt');
    services = await engine.describeProjectData(project.name);
  });

  afterAll(() => project.remove());

  it('lists the services with named volumes as files, the labelled one stopped for its copy', () => {
    expect(services.map((s) => [s.service, s.method, s.stopForCopy, s.volumes.map((v) => v.volume)])).toEqual(
      [
        ['app', 'files', false, ['uploads']],
        ['worker', 'files', true, ['cache']],
      ],
    );
  });

  /** The real repository, with a look at the service's state while restic reads the copy. */
  function watching(containerId: string) {
    const seen: { Running: boolean; Paused: boolean }[] = [];
    const watched: ResticRepository = Object.assign(Object.create(repo) as ResticRepository, {
      backupStream: async (...args: Parameters<ResticRepository['backupStream']>) => {
        seen.push(await project.state(containerId));
        return repo.backupStream(...args);
      },
    });
    return { seen, watched };
  }

  it('pauses the service for the copy and resumes it, verifies, and restores a removed file', async () => {
    const data = services[0]!;
    const { seen, watched } = watching(app);
    const part = await engine.backUpService(watched, data, ['test']);
    expect(seen).toMatchObject([{ Running: true, Paused: true }]);
    expect(await project.state(app)).toMatchObject({ Running: true, Paused: false });
    expect(part.fingerprint).toEqual({
      kind: 'files',
      files: { 'uploads/a/b/one.txt': 6, 'uploads/big.bin': 70000 },
    });
    expect(await engine.verifyPart(repo, data, part)).toEqual({ ok: true, checked: '2 files, 70006 bytes' });

    await sh(app, 'rm /srv/uploads/a/b/one.txt && echo new > /srv/uploads/added.txt');
    await restoreThroughEngine(engine, project.docker, repo, data, part);
    expect(await sh(app, 'cat /srv/uploads/link; ls /srv/uploads')).toBe('hello\na\nbig.bin\nlink\n');
  });

  it('stops a service labelled so for its copy and starts it again', async () => {
    const { seen, watched } = watching(worker);
    await engine.backUpService(watched, services[1]!, ['test']);
    expect(seen).toMatchObject([{ Running: false }]);
    expect(await project.state(worker)).toMatchObject({ Running: true, Paused: false });
  });

  it('refuses an archive with a path outside its volume before writing anything', async () => {
    const data = services[0]!;
    for (const members of [
      [tarMember('uploads/ok.txt', 'fine'), tarMember('uploads/../evil', 'escaped')],
      [tarMember('/etc/evil', 'escaped')],
      [tarMember('uploads/up', '', '2', '../../etc'), tarMember('uploads/up/passwd', 'x')],
    ]) {
      const archive = Buffer.concat([...members, Buffer.alloc(1024)]);
      const stored = await repo.backupStream(Readable.from([archive]), 'app.tar', ['test']);
      const part: PartResult = {
        service: 'app',
        method: 'files',
        volumes: ['uploads'],
        ...stored,
        fingerprint: { kind: 'files', files: {} },
      };
      const refusal = await restoreThroughEngine(engine, project.docker, repo, data, part).catch(
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(BackupError);
      expect((refusal as Error).message).toMatch(
        /^The archive holds a path outside its volume, so nothing was restored/,
      );
    }
    expect(await sh(app, 'ls /srv/uploads; ls /srv')).toBe('a\nbig.bin\nlink\nuploads\n');
  });

  it('after a crash mid-copy, the next start unpauses and starts again what the copy held', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let finish!: () => void;
    // Two copies that never finish, as a server that died mid-copy leaves them.
    const copies = [
      whileHeld(
        project.docker,
        stateDir,
        'pause',
        [app],
        () =>
          new Promise<void>((resolve) => {
            finish = resolve;
            inside();
          }),
      ),
    ];
    await entered;
    expect(await project.state(app)).toMatchObject({ Paused: true });
    let stoppedInside!: () => void;
    const stopped = new Promise<void>((resolve) => {
      stoppedInside = resolve;
    });
    let finishStop!: () => void;
    copies.push(
      whileHeld(
        project.docker,
        stateDir,
        'stop',
        [worker],
        () =>
          new Promise<void>((resolve) => {
            finishStop = resolve;
            stoppedInside();
          }),
      ),
    );
    await stopped;
    expect(await project.state(worker)).toMatchObject({ Running: false });

    const resumed = await engine.resumeInterrupted();
    expect(resumed.sort()).toEqual([app, worker].sort());
    expect(await project.state(app)).toMatchObject({ Running: true, Paused: false });
    expect(await project.state(worker)).toMatchObject({ Running: true });
    finish();
    finishStop();
    await Promise.all(copies);
  });

  it("removes its own throwaway leftovers at start, never another server's on the same engine", async () => {
    const mine = await createThrowawayVolume(
      { docker: project.docker, owner: throwawayOwnerOf(stateDir) },
      'left',
    );
    const theirs = await createThrowawayVolume({ docker: project.docker, owner: 'another-server' }, 'busy');
    try {
      await engine.resumeInterrupted();
      const names = ((await project.docker.listVolumes()).Volumes ?? []).map((volume) => volume.Name);
      expect(names).not.toContain(mine);
      expect(names).toContain(theirs);
    } finally {
      await removeThrowawayVolume(project.docker, theirs);
      await removeThrowawayVolume(project.docker, mine);
    }
  });
});
