import { PassThrough, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import { LABELS } from '../infra/docker/conventions.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

export const systemContainerName = (workspaceId: string) => `slipway-system-${workspaceId}`;

/** Host paths the `system` container sees, read-only: enough to read metrics, nothing to change them. */
const HOST_PROC = '/host/proc';

/**
 * Slipway's own small container on a workspace's VM. It only sleeps; the control plane reads the host's
 * /proc through it with `docker exec cat`. It is ours, so it may mount host paths (read-only).
 */
export async function ensureSystemContainer(
  docker: Docker,
  workspace: Pick<WorkspaceRow, 'id' | 'userId'>,
  image: string,
): Promise<Docker.Container> {
  const name = systemContainerName(workspace.id);
  const existing = docker.getContainer(name);
  try {
    const info = await existing.inspect();
    if (!info.State.Running) await existing.start();
    return existing;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
  }
  const container = await docker.createContainer({
    name,
    Image: image,
    Cmd: ['sleep', '2147483647'],
    Labels: {
      [LABELS.workspaceId]: workspace.id,
      [LABELS.userId]: workspace.userId,
      [LABELS.system]: 'true',
    },
    HostConfig: {
      Binds: ['/proc:/host/proc:ro', '/sys:/host/sys:ro'],
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      RestartPolicy: { Name: 'unless-stopped' },
      Memory: 32 * 1024 * 1024,
      NanoCpus: 100_000_000,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
    },
  });
  await container.start();
  return container;
}

/** The running `system` container of a workspace, if there is one. */
export async function findSystemContainer(
  docker: Docker,
  workspaceId: string,
): Promise<Docker.Container | undefined> {
  const container = docker.getContainer(systemContainerName(workspaceId));
  try {
    const info = await container.inspect();
    return info.State.Running ? container : undefined;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return undefined;
    throw error;
  }
}

/** Runs `cat` on fixed host paths inside the system container and returns stdout. */
export async function readHostFiles(
  docker: Docker,
  container: Docker.Container,
  files: string[],
): Promise<string> {
  const exec = await container.exec({
    Cmd: ['cat', '--', ...files.map((file) => `${HOST_PROC}/${file}`)],
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = (await exec.start({ hijack: true, stdin: false })) as unknown as Readable;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  const errors: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  docker.modem.demuxStream(stream, stdout, stderr);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.destroy();
      reject(new Error('reading host metrics timed out'));
    }, 10_000);
    stream.on('end', () => {
      clearTimeout(timer);
      resolve();
    });
    stream.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  await new Promise((resolve) => setImmediate(resolve));
  const result = await exec.inspect();
  if (result.ExitCode !== 0) {
    throw new Error(
      `reading host metrics failed: ${Buffer.concat(errors).toString('utf8').trim().slice(0, 200)}`,
    );
  }
  return Buffer.concat(chunks).toString('utf8');
}
