/**
 * Test fixtures for the running-apps suites: a workspace row as the deployment engine writes it and
 * real containers labelled as the engine labels them (conventions.ts), on the real Docker Engine.
 */
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { vms, workspaces } from '../infra/db/schema.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import type { Platform } from '../platform/platform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

export const TEST_IMAGE = 'busybox:1.36';

export const testDocker = () =>
  new Docker({ socketPath: process.env.DOCKER_SOCKET ?? '/var/run/docker.sock' });

export async function insertWorkspace(
  platform: Platform,
  options: {
    userId: string;
    name?: string;
    withVm?: boolean;
    serviceUrls?: Record<string, string>;
    status?: string;
  },
): Promise<WorkspaceRow> {
  const name = options.name ?? `app-${randomBytes(3).toString('hex')}`;
  let vmId: string | null = null;
  if (options.withVm !== false) {
    const [vm] = await platform.db
      .insert(vms)
      .values({
        name: `vm-${randomBytes(4).toString('hex')}`,
        provider: 'local',
        size: 'Standard_B2ats_v2',
        status: 'running',
        userId: options.userId,
      })
      .returning();
    vmId = vm!.id;
  }
  const [row] = await platform.db
    .insert(workspaces)
    .values({
      userId: options.userId,
      name,
      repoOwner: 'octo',
      repoName: name,
      repoUrl: `https://github.com/octo/${name}`,
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
      vmId,
      status: options.status ?? 'live',
      serviceUrls: options.serviceUrls ?? {},
      dockerImageName: `slipway-${name}:latest`,
    })
    .returning();
  return row!;
}

/** A busybox container labelled as one service of the workspace's Compose project, started. */
export async function runServiceContainer(
  docker: Docker,
  workspace: Pick<WorkspaceRow, 'id' | 'userId'>,
  service: string,
  script: string,
  extra: { restart?: 'no' | 'always' } = {},
): Promise<Docker.Container> {
  const container = await docker.createContainer({
    name: `${composeProjectName(workspace.id)}-${service}-${randomBytes(2).toString('hex')}`,
    Image: TEST_IMAGE,
    Cmd: ['sh', '-c', script],
    Labels: {
      [LABELS.workspaceId]: workspace.id,
      [LABELS.userId]: workspace.userId,
      [LABELS.composeProject]: composeProjectName(workspace.id),
      [LABELS.composeService]: service,
    },
    HostConfig: { RestartPolicy: { Name: extra.restart ?? 'no' } },
  });
  await container.start();
  return container;
}

/** Removes every container of the workspace (the service ones and the `system` one). */
export async function removeWorkspaceContainers(docker: Docker, workspaceId: string): Promise<void> {
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [`${LABELS.workspaceId}=${workspaceId}`] },
  });
  await Promise.all(
    containers.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {}),
    ),
  );
}

export async function waitUntil<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reads an SSE response's `data:` lines as they arrive. */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const lines: string[] = [];
  let carry = '';
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const done = (async () => {
    for (;;) {
      const { value, done: finished } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (finished) return;
      carry += decoder.decode(value, { stream: true });
      const events = carry.split('\n\n');
      carry = events.pop() ?? '';
      for (const event of events) if (event.startsWith('data: ')) lines.push(event.slice(6));
    }
  })();
  return { lines, done, cancel: () => reader.cancel().catch(() => {}) };
}
