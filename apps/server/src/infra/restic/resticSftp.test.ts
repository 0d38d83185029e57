import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../backups/engine/streamedPart.js';
import { ResticCli } from './resticCli.js';
import { ResticError } from './resticErrors.js';
import type { RepositoryLocation } from './resticRepository.js';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    }).on('error', () => resolve(false));
  });

// A real sshd on loopback (Debian's openssh-server, installed by scripts/services.sh), root's key only.
describe.skipIf((!existsSync(SSHD) || process.getuid?.() !== 0) && process.env.CI !== 'true')(
  'a restic repository over SFTP',
  () => {
    let dir: string;
    let sshd: ChildProcess;
    let location: Extract<RepositoryLocation, { kind: 'sftp' }>;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'slipway-sftp-test-'));
      for (const key of ['host_key', 'client_key']) {
        await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, key)]);
      }
      await writeFile(join(dir, 'authorized_keys'), await readFile(join(dir, 'client_key.pub')));
      const port = await freePort();
      await writeFile(
        join(dir, 'sshd_config'),
        [
          `Port ${port}`,
          'ListenAddress 127.0.0.1',
          `HostKey ${join(dir, 'host_key')}`,
          `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
          'PermitRootLogin prohibit-password',
          'PasswordAuthentication no',
          'KbdInteractiveAuthentication no',
          'UsePAM no',
          'StrictModes no',
          `PidFile ${join(dir, 'sshd.pid')}`,
          'Subsystem sftp internal-sftp',
          '',
        ].join('\n'),
      );
      const hostKey = (await readFile(join(dir, 'host_key.pub'), 'utf8')).split(' ').slice(0, 2).join(' ');
      await writeFile(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostKey}\n`);
      await writeFile(
        join(dir, 'other_known_hosts'),
        `[127.0.0.1]:${port} ${(await readFile(join(dir, 'client_key.pub'), 'utf8')).split(' ').slice(0, 2).join(' ')}\n`,
      );
      await mkdir('/run/sshd', { recursive: true });
      sshd = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: 'ignore' });
      await waitUntil(
        () => accepts(port),
        async () => {
          if (sshd.exitCode !== null) throw new Error(`sshd exited with ${sshd.exitCode}`);
        },
        'sshd',
      );
      location = {
        kind: 'sftp',
        user: 'root',
        host: '127.0.0.1',
        port,
        path: join(dir, 'repo'),
        identityFile: join(dir, 'client_key'),
        knownHostsFile: join(dir, 'known_hosts'),
      };
    });

    afterAll(async () => {
      sshd?.kill();
      await rm(dir, { recursive: true, force: true });
    });

    it('creates the repository, stores a stream and gives it back', async () => {
      const repo = new ResticCli(location, 'an sftp password', { runtimeDir: join(dir, 'runtime') });
      await repo.ensureInitialised();
      const stored = await repo.backupStream(Readable.from([Buffer.from('over ssh')]), 'db.sql', ['sftp']);
      const back = repo.dumpStream(stored.snapshotId, 'db.sql');
      const chunks: Buffer[] = [];
      for await (const chunk of back.stdout) chunks.push(chunk as Buffer);
      await back.done;
      expect(Buffer.concat(chunks).toString()).toBe('over ssh');
    });

    it('refuses a server whose host key is not the known one', async () => {
      const repo = new ResticCli(
        { ...location, knownHostsFile: join(dir, 'other_known_hosts') },
        'an sftp password',
        { runtimeDir: join(dir, 'runtime') },
      );
      const failure = await repo.ensureInitialised().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ResticError);
      expect((failure as Error).message).toMatch(/^The backup repository cannot be reached: /);
    });
  },
);
