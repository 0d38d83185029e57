import { expect, it } from 'vitest';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { containersOf, deployAndWait, docker, loopback } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { describeWith } from '../test/services.js';

const yamlString = (text: string) => JSON.stringify(text);

/** A self-hosted app as published: a fixed volume name and a fixed network name; the page counts its boots. */
const notes = (version: string) => ({
  'compose.yaml': `services:
  web:
    image: busybox:1.36
    command: ["sh", "-c", ${yamlString(`date >> /data/boots && mkdir -p /www && echo "${version} boot $$(wc -l < /data/boots)" > /www/index.html && exec httpd -f -p 8080 -h /www`)}]
    ports: ["8080"]
    volumes: [data:/data]
    networks: [backend]
networks:
  backend:
    name: shared
volumes:
  data:
    name: app_data
`,
});

const names = async (workspaceId: string) => {
  const [container] = (await containersOf(workspaceId)).filter(
    (c) => c.Labels[LABELS.composeService] === 'web',
  );
  const info = await docker.getContainer(container!.Id).inspect();
  return {
    networks: Object.keys(info.NetworkSettings.Networks),
    volumes: info.Mounts.filter((m) => m.Type === 'volume').map((m) => m.Name),
  };
};

const subnetOf = async (network: string) =>
  (await docker.getNetwork(network).inspect()).IPAM?.Config?.[0]?.Subnet as string | undefined;

const exists = {
  volume: (name: string) =>
    docker
      .getVolume(name)
      .inspect()
      .then(() => true)
      .catch(() => false),
  network: (name: string) =>
    docker
      .getNetwork(name)
      .inspect()
      .then(() => true)
      .catch(() => false),
};

/**
 * Issue 27: fixed `name:`s of networks and volumes, and services sharing PID and IPC namespaces, deployed as their
 * authors wrote them. A fixed name is the workspace's own (`slipway-{workspace}_{name}`), so two workspaces with
 * the same file never share a network or a volume.
 */
describeWith('docker')('fixed names and shared namespaces on the real engine', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '60' });
  const workspaceOf = async (name: string) =>
    (await engine.ctx.platform.db.query.workspaces.findMany()).find((w) => w.name === name)!;
  const page = async (url: string) => (await fetch(loopback(url))).text();

  it('gives two workspaces with the same name: a volume and a network each, keeps the data across a redeploy, and removes them with the workspace', async () => {
    engine.world.repo('notes-a', notes('a1'));
    engine.world.repo('notes-b', notes('b1'));
    const a = await deployAndWait(engine.client, { repo: 'notes-a' });
    expect(a.status.error).toBeNull();
    const b = await deployAndWait(engine.client, { repo: 'notes-b' });
    expect(b.status.error).toBeNull();
    const [aId, bId] = [(await workspaceOf('notes-a')).id, (await workspaceOf('notes-b')).id];
    const [aProject, bProject] = [composeProjectName(aId), composeProjectName(bId)];

    expect(await names(aId)).toEqual({ networks: [`${aProject}_shared`], volumes: [`${aProject}_app_data`] });
    expect(await names(bId)).toEqual({ networks: [`${bProject}_shared`], volumes: [`${bProject}_app_data`] });
    // Nothing was created under the bare names another project could take.
    expect([await exists.volume('app_data'), await exists.network('shared')]).toEqual([false, false]);
    // Each network has a subnet of Slipway's pool (WORKSPACE_NETWORK_POOL), not one of Docker's ~30 default ones.
    const subnets = [await subnetOf(`${aProject}_shared`), await subnetOf(`${bProject}_shared`)];
    for (const subnet of subnets) expect(subnet).toMatch(/^10\.213\.\d+\.(0|128)\/25$/);
    expect(subnets[0]).not.toBe(subnets[1]);
    const aUrl = a.status.data.deploymentData.metadata.urls.web!;
    const bUrl = b.status.data.deploymentData.metadata.urls.web!;
    expect([await page(aUrl), await page(bUrl)]).toEqual(['a1 boot 1\n', 'b1 boot 1\n']);

    // A new version starts on the data the first one wrote, in the same volume.
    engine.world.repo('notes-a', notes('a2'));
    const again = await deployAndWait(engine.client, { repo: 'notes-a', workflowType: 'redeploy' });
    expect(again.status.error).toBeNull();
    expect(await page(again.status.data.deploymentData.metadata.urls.web!)).toBe('a2 boot 2\n');
    expect(await names(aId)).toEqual({ networks: [`${aProject}_shared`], volumes: [`${aProject}_app_data`] });
    expect(await subnetOf(`${aProject}_shared`)).toBe(subnets[0]);

    // Deleting A removes its volume and network; B keeps its own, and keeps serving.
    expect((await engine.client.delete('/api/workspace-delete/notes-a')).statusCode).toBe(200);
    expect([await exists.volume(`${aProject}_app_data`), await exists.network(`${aProject}_shared`)]).toEqual(
      [false, false],
    );
    expect([await exists.volume(`${bProject}_app_data`), await exists.network(`${bProject}_shared`)]).toEqual(
      [true, true],
    );
    expect(await page(bUrl)).toBe('b1 boot 1\n');
    expect((await engine.client.delete('/api/workspace-delete/notes-b')).statusCode).toBe(200);
    expect([await exists.volume(`${bProject}_app_data`), await exists.network(`${bProject}_shared`)]).toEqual(
      [false, false],
    );
  }, 300_000);

  it('runs a sidecar that shares its neighbour’s PID and IPC namespaces (pid and ipc: service:app), also after the app changes', async () => {
    const sidecar = (seconds: number) =>
      engine.world.repo('sidecar', {
        'compose.yaml': `services:
  app:
    image: busybox:1.36
    command: ["sh", "-c", "echo written-by-app-${seconds} > /dev/shm/marker && exec sleep ${seconds}"]
  side:
    image: busybox:1.36
    pid: "service:app"
    ipc: "service:app"
    depends_on: [app]
    command: ["sh", "-c", ${yamlString(`until [ -f /dev/shm/marker ] && ps | grep -q '[s]leep 36[0-9][0-9]'; do sleep 0.1; done; mkdir -p /www && { cat /dev/shm/marker; ps -o args; } > /www/index.html && exec httpd -f -p 8080 -h /www`)}]
    ports: ["8080"]
`,
      });
    sidecar(3601);
    const first = await deployAndWait(engine.client, { repo: 'sidecar' });
    expect(first.status.error).toBeNull();
    // The app's shared memory and its process, seen from the sidecar.
    const seen = await page(first.status.data.deploymentData.metadata.urls.side!);
    expect(seen).toContain('written-by-app-3601');
    expect(seen).toContain('sleep 3601');

    // Only the app changes, and the sidecar is started again with it: left in the old app's namespaces (Compose
    // v1 leaves it, as its own configuration did not change), it would die with them.
    sidecar(3602);
    const second = await deployAndWait(engine.client, { repo: 'sidecar', workflowType: 'redeploy' });
    expect(second.status.error).toBeNull();
    const after = await page(second.status.data.deploymentData.metadata.urls.side!);
    expect(after).toContain('written-by-app-3602');
    expect(after).toContain('sleep 3602');
    const workspace = await workspaceOf('sidecar');
    const running = (await containersOf(workspace.id)).filter((c) => c.State === 'running');
    expect(running.map((c) => c.Labels[LABELS.composeService]).sort()).toEqual(['app', 'side']);
  }, 300_000);
});
