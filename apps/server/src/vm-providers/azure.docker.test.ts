import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { TokenCredential } from '@azure/core-auth';
import { findVmSize } from '@slipway/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSshd } from '../test/fixtures/sshdProcess.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { AZURE_TEST_TOKEN, startArmStandIn } from '../test/standins/azure.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { createAzureVmProvider } from './azure.js';
import { createVmRepository } from './vmRepository.js';

const SUB = '00000000-0000-0000-0000-000000000001';
const SUBNET = `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/workspaces`;
const credential = (token: string): TokenCredential => ({
  getToken: async () => ({ token, expiresOnTimestamp: Date.now() + 3_600_000 }),
});

// The "VM" the stand-in reports lives at 127.0.0.1: sshd in front of the local Docker Engine, which receives the
// SSH key from the VM's PUT body as Azure's provisioning agent would.
describeWith('docker')('the Azure VM provider against an ARM stand-in', () => {
  let ctx: TestContext;
  let sshd: Awaited<ReturnType<typeof startSshd>>;
  let arm: Awaited<ReturnType<typeof startArmStandIn>>;

  beforeAll(async () => {
    ctx = await createTestContext();
    sshd = await startSshd();
    arm = await startArmStandIn({
      privateIp: '127.0.0.1',
      onVmCreated: (body) => {
        const os = body.properties?.osProfile as {
          linuxConfiguration: { ssh: { publicKeys: { keyData: string }[] } };
        };
        const key = os.linuxConfiguration.ssh.publicKeys[0]!.keyData;
        appendFileSync(path.join(path.dirname(sshd.privateKeyFile), 'authorized_keys'), `${key}\n`);
      },
    });
  });

  afterAll(async () => {
    await arm?.close();
    await sshd?.stop();
    await ctx?.close();
  });

  const provider = (token = AZURE_TEST_TOKEN) =>
    createAzureVmProvider({
      vmRepository: createVmRepository(ctx.platform.db),
      vault: ctx.platform.vault,
      credential: credential(token),
      subscriptionId: SUB,
      resourceGroup: 'slipway-vms',
      location: 'westeurope',
      subnetId: SUBNET,
      armUrl: arm.url,
      armCa: arm.ca,
      adminUsername: sshd.user,
      sshPort: sshd.port,
      pollIntervalMs: 20,
      readyTimeoutMs: 20_000,
    });

  it('creates a NIC without public IP and a VM of the chosen size whose cloud-init installs Docker, then reaches it', async () => {
    const user = await ctx.platform.users.upsertLocal({
      login: 'azure-user',
      name: 'Azure User',
      firstName: 'Azure',
      lastName: 'User',
      email: null,
      whitelisted: true,
      profileCompleted: true,
    });
    const workspace = await insertWorkspace(ctx.platform, { userId: user.id, withVm: false });
    const azure = provider();
    const vm = await azure.ensure(workspace, findVmSize('Standard_B2als_v2')!);
    expect(vm).toMatchObject({
      provider: 'azure',
      status: 'running',
      privateIp: '127.0.0.1',
      size: 'Standard_B2als_v2',
    });
    expect(JSON.stringify(vm.providerData)).not.toContain('PRIVATE KEY');

    const nicPut = arm.requests.find((r) => r.method === 'PUT' && r.path.includes('/networkInterfaces/'))!;
    const nic = (
      nicPut.body as { properties: { ipConfigurations: { properties: Record<string, unknown> }[] } }
    ).properties;
    expect(nic.ipConfigurations[0]!.properties.subnet).toMatchObject({ id: SUBNET });
    expect(nic.ipConfigurations[0]!.properties).not.toHaveProperty('publicIPAddress');
    const vmPut = arm.requests.find((r) => r.method === 'PUT' && r.path.includes('/virtualMachines/'))!;
    expect(vmPut.path).toBe(
      `/subscriptions/${SUB}/resourceGroups/slipway-vms/providers/Microsoft.Compute/virtualMachines/${vm.name}`,
    );
    const props = (
      vmPut.body as {
        properties: {
          hardwareProfile: unknown;
          osProfile: { customData: string; linuxConfiguration: { disablePasswordAuthentication: boolean } };
          networkProfile: { networkInterfaces: { id: string }[] };
        };
      }
    ).properties;
    expect(props.hardwareProfile).toEqual({ vmSize: 'Standard_B2als_v2' });
    expect(props.osProfile.linuxConfiguration.disablePasswordAuthentication).toBe(true);
    expect(Buffer.from(props.osProfile.customData, 'base64').toString()).toContain('docker.io');
    expect(props.networkProfile.networkInterfaces[0]!.id).toContain(`${vm.name}-nic`);
    // Long-running operations were polled through Azure-AsyncOperation.
    expect(
      arm.requests.filter((r) => r.method === 'GET' && r.path.includes('/operations/')).length,
    ).toBeGreaterThanOrEqual(4);

    const target = await azure.connect(vm);
    expect(await target.docker.ping()).toBeTruthy();
    await target.close();
    expect(await azure.describe(vm)).toEqual({ status: 'running', privateIp: '127.0.0.1' });

    // A redeploy reuses the VM: no new PUT.
    const puts = arm.requests.filter((r) => r.method === 'PUT').length;
    expect((await azure.ensure(workspace, findVmSize('Standard_B2als_v2')!)).id).toBe(vm.id);
    expect(arm.requests.filter((r) => r.method === 'PUT').length).toBe(puts);

    await azure.delete(vm);
    expect(arm.requests.filter((r) => r.method === 'DELETE').map((r) => path.basename(r.path))).toEqual([
      vm.name,
      `${vm.name}-nic`,
    ]);
    expect(arm.resources.size).toBe(0);
    expect(await ctx.platform.db.query.vms.findMany()).toHaveLength(0);
    expect((await azure.describe(vm)).status).toBe('deleted');
  });

  it('gives a workspace of three nodes three VMs of its size, each reached, and gives one back', async () => {
    const user = await ctx.platform.users.upsertLocal({
      login: 'azure-nodes',
      name: 'x',
      firstName: 'x',
      lastName: 'y',
      email: null,
      whitelisted: true,
      profileCompleted: true,
    });
    const workspace = await insertWorkspace(ctx.platform, { userId: user.id, withVm: false });
    const azure = provider();
    const before = arm.requests.length;
    const nodes = await azure.ensureNodes(workspace, findVmSize('Standard_B2als_v2')!, 3);
    const base = `slipway-azure-${workspace.id}`;
    expect(nodes.map((vm) => [vm.name, vm.nodeIndex, vm.workspaceId, vm.size, vm.status])).toEqual([
      [base, 1, workspace.id, 'Standard_B2als_v2', 'running'],
      [`${base}-n2`, 2, workspace.id, 'Standard_B2als_v2', 'running'],
      [`${base}-n3`, 3, workspace.id, 'Standard_B2als_v2', 'running'],
    ]);
    const puts = arm.requests.slice(before).filter((r) => r.method === 'PUT');
    const vmPuts = puts.filter((r) => r.path.includes('/virtualMachines/'));
    expect(vmPuts.map((r) => path.basename(r.path)).sort()).toEqual([base, `${base}-n2`, `${base}-n3`]);
    expect(puts.filter((r) => r.path.includes('/networkInterfaces/'))).toHaveLength(3);
    for (const put of vmPuts) {
      const body = put.body as { tags: Record<string, string>; properties: { hardwareProfile: unknown } };
      expect(body.properties.hardwareProfile).toEqual({ vmSize: 'Standard_B2als_v2' });
      expect(body.tags).toMatchObject({ 'slipway-workspace': workspace.id });
    }
    expect(
      vmPuts.map((r) => (r.body as { tags: Record<string, string> }).tags['slipway-node']).sort(),
    ).toEqual(['1', '2', '3']);
    for (const vm of nodes) {
      // Each node's own key, kept only encrypted.
      expect(JSON.stringify(vm.providerData)).not.toContain('PRIVATE KEY');
      const { engine, close } = await azure.nodeEngine(vm);
      expect(engine.address).toBe('127.0.0.1');
      expect(await engine.docker.ping()).toBeTruthy();
      await close();
    }

    await azure.releaseNode(nodes[2]!);
    expect(
      arm.requests
        .filter((r) => r.method === 'DELETE')
        .map((r) => path.basename(r.path))
        .slice(-2),
    ).toEqual([`${base}-n3`, `${base}-n3-nic`]);
    expect([...arm.resources.keys()].some((id) => id.toLowerCase().includes(`${base}-n3`))).toBe(false);
    await azure.releaseNode(nodes[1]!);
    await azure.delete(nodes[0]!);
    expect(arm.resources.size).toBe(0);
    expect(await ctx.platform.db.query.vms.findMany()).toHaveLength(0);
  });

  it('surfaces ARM refusing the credential', async () => {
    const user = await ctx.platform.users.upsertLocal({
      login: 'azure-user-2',
      name: 'x',
      firstName: 'x',
      lastName: 'y',
      email: null,
      whitelisted: true,
      profileCompleted: true,
    });
    await expect(
      provider('wrong-token').ensure(
        await insertWorkspace(ctx.platform, { userId: user.id, withVm: false }),
        findVmSize('Standard_B2ats_v2')!,
      ),
    ).rejects.toThrow(/Authentication failed/);
  });
});
