import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, expect, it } from 'vitest';
import { describeWith } from '../../test/services.js';
import { composeProjectName, LABELS } from './conventions.js';
import { removeProjectResources } from './projectResources.js';

describeWith('docker')('removing a workspace from an engine', () => {
  const docker = new Docker({ socketPath: '/var/run/docker.sock' });
  const workspaceId = randomUUID();
  const other = randomUUID();

  async function start(name: string, labels: Record<string, string>) {
    const container = await docker.createContainer({
      name,
      Image: 'busybox:1.36',
      Cmd: ['sleep', '300'],
      Labels: labels,
    });
    await container.start();
    return container.id;
  }

  afterAll(async () => {
    for (const label of [workspaceId, other]) {
      for (const c of await docker.listContainers({
        all: true,
        filters: { label: [`${LABELS.workspaceId}=${label}`] },
      })) {
        await docker.getContainer(c.Id).remove({ force: true });
      }
    }
  });

  it("removes the project's containers and the workspace's system container, and nobody else's", async () => {
    await start(`slipway-test-app-${workspaceId}`, {
      [LABELS.composeProject]: composeProjectName(workspaceId),
      [LABELS.workspaceId]: workspaceId,
    });
    await start(`slipway-system-${workspaceId}`, {
      [LABELS.system]: 'true',
      [LABELS.workspaceId]: workspaceId,
    });
    const bystander = await start(`slipway-system-${other}`, {
      [LABELS.system]: 'true',
      [LABELS.workspaceId]: other,
    });

    await removeProjectResources(docker, workspaceId, { volumes: true });

    const left = await docker.listContainers({
      all: true,
      filters: { label: [`${LABELS.workspaceId}=${workspaceId}`] },
    });
    expect(left).toEqual([]);
    expect((await docker.getContainer(bystander).inspect()).State.Running).toBe(true);
  });
});
