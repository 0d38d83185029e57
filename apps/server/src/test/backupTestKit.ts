import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import {
  type BackupEngine,
  BackupError,
  type PartResult,
  type ServiceData,
} from '../backups/engine/backupEngine.js';
import { waitUntil } from '../backups/engine/streamedPart.js';
import { execText } from '../infra/docker/containerExec.js';
import { LABELS } from '../infra/docker/conventions.js';
import type { ResticRepository } from '../infra/restic/resticRepository.js';

const run = promisify(execFile);
const repositoryRoot = resolve(import.meta.dirname, '../../../..');

/** Builds local/postgres:15, local/redis:7 and local/mariadb:10.11 when missing (a fresh CI machine). */
export async function ensureDatabaseImages(): Promise<void> {
  await run('bash', [join(repositoryRoot, 'scripts/database-images.sh')], { maxBuffer: 16 * 1024 * 1024 });
}

/**
 * A Compose project made by hand: containers labelled as Compose labels them, named volumes labelled with
 * their Compose names. Everything it makes is removed by `remove()`.
 */
export class TestProject {
  readonly docker = new Docker({ socketPath: '/var/run/docker.sock' });
  readonly name = `slipway-bt${randomUUID().slice(0, 8)}`;
  private readonly containers: string[] = [];
  private readonly volumes: string[] = [];
  private readonly dirs: string[] = [];

  async tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'slipway-backup-test-'));
    this.dirs.push(dir);
    return dir;
  }

  async volume(name: string): Promise<string> {
    const dockerName = `${this.name}_${name}`;
    await this.docker.createVolume({
      Name: dockerName,
      Labels: { 'com.docker.compose.project': this.name, 'com.docker.compose.volume': name },
    });
    this.volumes.push(dockerName);
    return dockerName;
  }

  async service(
    service: string,
    options: {
      image: string;
      cmd?: string[];
      env?: string[];
      volumes?: Record<string, string>;
      labels?: Record<string, string>;
    },
  ): Promise<string> {
    const mounts = [];
    for (const [volume, path] of Object.entries(options.volumes ?? {})) {
      mounts.push({ Type: 'volume' as const, Source: await this.volume(volume), Target: path });
    }
    const container = await this.docker.createContainer({
      name: `${this.name}_${service}_1`,
      Image: options.image,
      Cmd: options.cmd,
      Env: options.env,
      Labels: { [LABELS.composeProject]: this.name, [LABELS.composeService]: service, ...options.labels },
      HostConfig: { Mounts: mounts, NetworkMode: 'none' },
    });
    this.containers.push(container.id);
    await container.start();
    return container.id;
  }

  /** Waits until `cmd` succeeds in the container (a server accepting queries). */
  async waitForCommand(containerId: string, cmd: string[], user?: string): Promise<void> {
    await waitUntil(
      () => execText(this.docker, containerId, cmd, { user }).then(() => true),
      async () => {
        const state = (await this.docker.getContainer(containerId).inspect()).State;
        if (!state.Running) throw new Error(`${containerId} stopped with ${state.ExitCode}`);
      },
      'The test service',
    );
  }

  async state(containerId: string): Promise<{ Running: boolean; Paused: boolean }> {
    return (await this.docker.getContainer(containerId).inspect()).State;
  }

  async remove(): Promise<void> {
    for (const id of this.containers)
      await this.docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => {});
    for (const name of this.volumes)
      await this.docker
        .getVolume(name)
        .remove({ force: true })
        .catch(() => {});
    for (const dir of this.dirs) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A restore as the restore run does it, through the engine alone: the part staged (read in full and checked),
 * the service stopped, the staged data swapped in, the service started and its live data checked; the restore's
 * volumes removed. A refusal or a failed check is thrown (a BackupError), after putting the data back as it was.
 */
export async function restoreThroughEngine(
  engine: BackupEngine,
  docker: Docker,
  repo: ResticRepository,
  data: ServiceData,
  part: PartResult,
): Promise<void> {
  const restoreId = randomUUID();
  try {
    const staged = await engine.stagePart(repo, data, part, restoreId);
    const container = docker.getContainer(data.containerId);
    await container.stop({ t: 5 }).catch((error: { statusCode?: number }) => {
      if (error.statusCode !== 304) throw error;
    });
    try {
      await engine.swapIn(staged.units);
    } finally {
      await container.start().catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 304) throw error;
      });
    }
    const check = await engine.checkLive(data, part);
    if (!check.ok) throw new BackupError(`The restore did not check out: ${check.reason}`);
  } finally {
    await engine.discardRestore(restoreId);
  }
}
