import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, expect, it } from 'vitest';
import { describeWith } from '../../test/services.js';
import { builderOf, builtImageName, composeProjectName, LABELS } from './conventions.js';
import { pruneWorkspaceImages, removeProjectResources } from './projectResources.js';

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

  it("removes networks and volumes named as the workspace's own even without Compose's label, and not another's that holds its name", async () => {
    const ours = `${composeProjectName(workspaceId)}_app_data`;
    // Another workspace's fixed name `slipway-{ws}_app_data` becomes `slipway-{other}_slipway-{ws}_app_data`:
    // the engine's name filter matches it too.
    const theirs = `${composeProjectName(other)}_${ours}`;
    try {
      for (const name of [ours, theirs]) {
        await docker.createVolume({ Name: name });
        await docker.createNetwork({ Name: name });
      }
      await removeProjectResources(docker, workspaceId, { volumes: true });
      const volumes = ((await docker.listVolumes()).Volumes ?? []).map((v) => v.Name);
      const networks = (await docker.listNetworks()).map((n) => n.Name);
      expect([volumes.includes(ours), networks.includes(ours)]).toEqual([false, false]);
      expect([volumes.includes(theirs), networks.includes(theirs)]).toEqual([true, true]);
    } finally {
      for (const name of [ours, theirs]) {
        await docker
          .getVolume(name)
          .remove()
          .catch(() => {});
        await docker
          .getNetwork(name)
          .remove()
          .catch(() => {});
      }
    }
  });

  it("leaves another workspace's name on an image both built: pruning and removal go by the workspace's names", async () => {
    // The same Dockerfile built in two workspaces is one image (nothing of the workspace is in the build),
    // with a name in each. An image of the test's own, so that a regression cannot untag busybox.
    const container = await docker.createContainer({ Image: 'busybox:1.36', Cmd: ['true'] });
    const { Id: base } = (await container.commit({ changes: [`LABEL test-nonce=${workspaceId}`] })) as {
      Id: string;
    };
    await container.remove();
    const mine = builtImageName(workspaceId, 'app', randomUUID());
    const theirs = builtImageName(other, 'app', randomUUID());
    const nameImage = (name: string) =>
      docker.getImage(base).tag({ repo: name.slice(0, name.lastIndexOf(':')), tag: builderOf(name) });
    await nameImage(mine);
    await nameImage(theirs);
    const namesLeft = async () => (await docker.getImage(base).inspect()).RepoTags;
    try {
      const n = await pruneWorkspaceImages(docker, workspaceId, []);
      expect(n).toBe(1);
      expect(await namesLeft()).toContain(theirs);
      expect(await namesLeft()).not.toContain(mine);
      await nameImage(mine);
      await removeProjectResources(docker, workspaceId, { volumes: false, images: true });
      expect(await namesLeft()).toEqual([theirs]);
      expect(await namesLeft()).not.toContain(mine);
    } finally {
      await docker
        .getImage(base)
        .remove({ force: true })
        .catch(() => undefined);
    }
  });
});
