import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, expect, it } from 'vitest';
import { describeWith } from '../../test/services.js';
import { lostSubnetRace, parseSubnetPool, placeNetworks, type SubnetPool } from './networkSubnets.js';

const subnetOf = (project: Record<string, unknown>, key: string) =>
  (project.networks as Record<string, { ipam: { config: { subnet: string }[] } }>)[key]!.ipam.config[0]!
    .subnet;

describeWith('docker')("workspaces' networks on one engine", () => {
  const docker = new Docker({ socketPath: '/var/run/docker.sock' });
  const run = randomUUID().slice(0, 8);
  const created: string[] = [];
  // A pool of this test's own (a /18 of 10.220.0.0/14, 128 networks, picked at random): a test run beside this one
  // seldom meets it, and when it does each takes the other's subnets as taken.
  const block = Math.floor(Math.random() * 16);
  const pool: SubnetPool = parseSubnetPool(`10.${220 + Math.floor(block / 4)}.${(block % 4) * 64}.0/18`, 25);
  let stolen = '';

  afterAll(async () => {
    for (const name of created)
      await docker
        .getNetwork(name)
        .remove()
        .catch(() => undefined);
  });

  /** What Compose does with the placed file: creates each network with its subnet (again if another took it). */
  async function createProjectNetworks(project: string, file: Record<string, unknown>) {
    for (;;) {
      const placed = await placeNetworks(file, project, docker, pool);
      try {
        for (const [key, network] of Object.entries(
          placed.project.networks as Record<string, { ipam: object }>,
        )) {
          const name = `${project}_${key}`;
          const exists = await docker
            .getNetwork(name)
            .inspect()
            .then(
              () => true,
              () => false,
            );
          if (exists) continue;
          const subnet = subnetOf(placed.project, key);
          await docker.createNetwork({ Name: name, IPAM: { Config: [{ Subnet: subnet }] }, ...network });
          created.push(name);
        }
        return placed;
      } catch (error) {
        if (!(await lostSubnetRace(docker, placed.chosen))) throw error;
      }
    }
  }

  it("gives 40 projects a network each, past the ~30 networks of Docker's default pools", async () => {
    const subnets = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const placed = await createProjectNetworks(`slipway-subnets-${run}-${i}`, { services: {} });
      subnets.add(subnetOf(placed.project, 'default'));
    }
    expect(subnets.size).toBe(40);
    for (const subnet of subnets) expect(subnet).toMatch(/^10\.22[0-3]\.\d+\.(0|128)\/25$/);
  });

  it('keeps the subnet a network already has, and gives a second network its own', async () => {
    const project = `slipway-subnets-${run}-two`;
    const file = { services: {}, networks: { back: { internal: true } } };
    const first = await createProjectNetworks(project, file);
    const again = await placeNetworks(file, project, docker, pool);
    expect(again.chosen.size).toBe(0);
    expect(subnetOf(again.project, 'default')).toBe(subnetOf(first.project, 'default'));
    expect(subnetOf(again.project, 'back')).toBe(subnetOf(first.project, 'back'));
    expect(subnetOf(first.project, 'back')).not.toBe(subnetOf(first.project, 'default'));
    expect((again.project.networks as { back: { internal: boolean } }).back.internal).toBe(true);
  });

  it('tells when another project took the chosen subnet, and chooses another the next time', async () => {
    const project = `slipway-subnets-${run}-race`;
    const placed = await placeNetworks({ services: {} }, project, docker, pool);
    const subnet = subnetOf(placed.project, 'default');
    stolen = subnet;
    const thief = `slipway-subnets-${run}-thief`;
    await docker.createNetwork({ Name: thief, IPAM: { Config: [{ Subnet: subnet }] } });
    created.push(thief);
    expect(await lostSubnetRace(docker, placed.chosen)).toBe(true);
    const next = await placeNetworks({ services: {} }, project, docker, pool);
    expect(subnetOf(next.project, 'default')).not.toBe(subnet);
    expect(await lostSubnetRace(docker, next.chosen)).toBe(false);
  });

  it('says which setting to change when the pool is full (a pool of one /25, taken)', async () => {
    const tiny = parseSubnetPool(stolen, 25);
    await expect(
      placeNetworks({ services: {} }, `slipway-subnets-${run}-full`, docker, tiny),
    ).rejects.toThrow(
      /No free subnet is left for network 'default': every \/25 of WORKSPACE_NETWORK_POOL .* is in use on this VM/,
    );
  });
});
