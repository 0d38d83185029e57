import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  runServiceContainer,
  testDocker,
} from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { systemContainerName } from './systemContainer.js';

const run = promisify(execFile);
const docker = testDocker();

/** "12.5MiB" → bytes, as `docker stats` prints them. */
function parseSize(text: string): number {
  const match = /^([\d.]+)\s*([KMGT]?i?B)$/.exec(text.trim());
  if (!match) throw new Error(`unreadable size ${text}`);
  const units: Record<string, number> = {
    B: 1,
    KiB: 1024,
    MiB: 1024 ** 2,
    GiB: 1024 ** 3,
    kB: 1e3,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
  };
  return Number(match[1]) * (units[match[2]!] ?? 1);
}

describeWith('docker')('system health', () => {
  let ctx: TestContext;
  let owner: { client: TestClient; userId: string };
  let workspace: WorkspaceRow;
  let empty: WorkspaceRow;
  let noVm: WorkspaceRow;
  let busyName: string;
  let other: WorkspaceRow;
  let otherName: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await signInNewUser(ctx);
    workspace = await insertWorkspace(ctx.platform, { userId: owner.userId });
    empty = await insertWorkspace(ctx.platform, { userId: owner.userId });
    noVm = await insertWorkspace(ctx.platform, { userId: owner.userId, withVm: false });
    // A steady load: one core busy, about 16 MiB held.
    const busy = await runServiceContainer(
      docker,
      workspace,
      'busy',
      'dd if=/dev/zero bs=1M count=16 2>/dev/null | cat > /dev/shm/held; while true; do :; done',
    );
    busyName = (await busy.inspect()).Name.replace(/^\//, '');
    // Another user's workspace on the same engine: none of its numbers may show.
    const stranger = await signInNewUser(ctx);
    other = await insertWorkspace(ctx.platform, { userId: stranger.userId });
    const neighbour = await runServiceContainer(docker, other, 'neighbour', 'sleep 300');
    otherName = (await neighbour.inspect()).Name.replace(/^\//, '');
  });

  afterAll(async () => {
    for (const row of [workspace, empty, noVm, other])
      if (row) await removeWorkspaceContainers(docker, row.id);
    await ctx?.close();
  });

  it('is not deployed until asked, then runs `system` read-only with the workspace labels', async () => {
    const before = (await owner.client.get(`/api/monitoring/system-health-status/${workspace.name}`)).json();
    expect(before.system_health_deployed).toBe(false);
    const deployed = await owner.client.post(`/api/monitoring/system-health-deploy/${workspace.name}`);
    expect(deployed.statusCode).toBe(200);
    const after = (await owner.client.get(`/api/monitoring/system-health-status/${workspace.name}`)).json();
    expect(after.system_health_deployed).toBe(true);

    const info = await docker.getContainer(systemContainerName(workspace.id)).inspect();
    expect(info.Config.Labels).toMatchObject({
      'dev.slipway.system': 'true',
      'dev.slipway.workspace-id': workspace.id,
    });
    expect(info.Mounts.every((mount) => mount.RW === false)).toBe(true);
    // Deploying twice is harmless.
    expect(
      (await owner.client.post(`/api/monitoring/system-health-deploy/${workspace.name}`)).statusCode,
    ).toBe(200);
  });

  it("reports the workspace's own VM: its size's limits, its containers' usage and network only", async () => {
    const { system_info: info } = (
      await owner.client.get(`/api/monitoring/system-info/${workspace.name}`)
    ).json();
    const engine = await docker.info();
    // Standard_B2ats_v2: 2 vCPUs and 1 GB, whatever the host has.
    expect(info.cpu_cores).toBe(2);
    expect(info.memory_total).toBe(1024 ** 3);
    expect(info.memory_total).toBeLessThan(os.totalmem());
    expect(info.hostname).not.toBe(engine.Name);
    expect(info.cloud_provider).toBe('local');
    expect(info.cpu_frequency_mhz).toBeGreaterThan(0);
    // Only this workspace's container's interfaces: not the host's, not the other workspace's.
    const names = info.network_interfaces.map((i: { name: string }) => i.name);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name.startsWith(`${busyName}/`), name).toBe(true);
    expect(names.some((name: string) => name.startsWith(otherName))).toBe(false);

    const { vm_health: health } = (
      await owner.client.get(`/api/monitoring/vm-health-metrics/${workspace.name}`)
    ).json();
    expect(health.memory_total).toBe(info.memory_total);
    // The busy container holds about 16 MiB; the host uses gigabytes.
    expect(health.memory_used).toBeGreaterThan(12 * 1024 ** 2);
    expect(health.memory_used).toBeLessThan(200 * 1024 ** 2);
    expect(health.memory_usage_percent).toBeCloseTo((health.memory_used / health.memory_total) * 100, 0);
    // One busy loop on the VM's two vCPUs: up to half, less when other tests load the machine.
    expect(health.cpu_usage_percent).toBeGreaterThan(2.5);
    expect(health.cpu_usage_percent).toBeLessThanOrEqual(100);
    expect(health.network_rx_bytes).toBeGreaterThanOrEqual(0);
  });

  it('keeps a history for the chart', async () => {
    await ctx.platform.runningApps.metricSampler.sampleAll();
    const { vm_health: health } = (
      await owner.client.get(`/api/monitoring/vm-health-metrics/${workspace.name}`)
    ).json();
    expect(health.history).toHaveLength(1);
    expect(health.history[0]).toMatchObject({
      ts: expect.any(String),
      cpu: expect.any(Number),
      memory: expect.any(Number),
    });
  });

  it('gives per-container numbers close to `docker stats`, without the system container', async () => {
    const sample = async () => {
      // Both read one-second CPU windows: taken at the same time, they cover (nearly) the same second.
      const [ours, theirs] = await Promise.all([
        owner.client.get(`/api/monitoring/system-health-containers/${workspace.name}`),
        run('docker', ['stats', '--no-stream', '--format', '{{json .}}', '--', busyName]),
      ]);
      const { containers } = ours.json();
      return {
        containers,
        ours: containers[busyName],
        theirs: JSON.parse(theirs.stdout.trim()) as { CPUPerc: string; MemUsage: string },
      };
    };
    // The median of three samples: a busy loop on a machine other tests load too swings from second to second.
    const samples = [await sample(), await sample(), await sample()];
    const gap = (s: (typeof samples)[number]) =>
      Math.abs(s.ours.cpu_percent - Number.parseFloat(s.theirs.CPUPerc));
    const { containers, ours, theirs } = [...samples].sort((a, b) => gap(a) - gap(b))[1]!;
    expect(Object.keys(containers)).toEqual([busyName]);
    const theirCpu = Number.parseFloat(theirs.CPUPerc);
    const [theirMemory, theirLimit] = theirs.MemUsage.split('/').map(parseSize);
    expect(Math.abs(ours.cpu_percent - theirCpu)).toBeLessThan(30);
    expect(ours.cpu_percent).toBeGreaterThan(5);
    expect(Math.abs(ours.memory_usage - theirMemory!)).toBeLessThan(8 * 1024 ** 2);
    expect(ours.memory_usage).toBeGreaterThan(12 * 1024 ** 2);
    expect(Math.abs(ours.memory_limit - theirLimit!) / theirLimit!).toBeLessThan(0.01);
    expect(ours.image).toBe('busybox:1.36');
  });

  it('says so when there are no containers or no VM, and hides other users’ workspaces', async () => {
    expect((await owner.client.get(`/api/monitoring/system-health-containers/${empty.name}`)).json()).toEqual(
      {
        containers: {},
        message: 'No Containers Found',
      },
    );
    expect((await owner.client.get(`/api/monitoring/system-health-status/${noVm.name}`)).json()).toEqual({
      system_health_deployed: false,
      message: 'No VM configured for this workspace',
    });
    const info = await owner.client.get(`/api/monitoring/system-info/${noVm.name}`);
    expect(info.statusCode).toBe(422);
    expect(info.json().error).toBe('No VM configured for this workspace');

    const stranger = await signInNewUser(ctx);
    for (const path of [
      'system-health-status',
      'system-info',
      'vm-health-metrics',
      'system-health-containers',
    ]) {
      const response = await stranger.client.get(`/api/monitoring/${path}/${workspace.name}`);
      expect(response.statusCode, path).toBe(404);
    }
    expect(
      (await stranger.client.post(`/api/monitoring/system-health-deploy/${workspace.name}`)).statusCode,
    ).toBe(404);
  });
});
