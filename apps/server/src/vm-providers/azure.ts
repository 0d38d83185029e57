import { ComputeManagementClient, type VirtualMachine } from '@azure/arm-compute';
import { NetworkManagementClient } from '@azure/arm-network';
import type { TokenCredential } from '@azure/core-auth';
import type { VmSize } from '@slipway/contract';
import ssh2 from 'ssh2';
import type { Vault } from '../infra/vault/vault.js';
import { ensureNodeVms, NODE_LIMITS } from './nodeVms.js';
import { createSshTarget } from './ssh.js';
import { openSsh } from './sshTunnel.js';
import type { VmProvider, VmRow, WorkspaceRef } from './vmProvider.js';
import { nodeVmNameFor, type VmRepository } from './vmRepository.js';

interface AzureProviderData {
  resourceGroup: string;
  vmResourceId?: string;
  nicResourceId?: string;
  username: string;
  keyEnc: string;
  sshPort: number;
  hostKeySha256?: string;
}

/** Installs the Docker Engine on first boot; the Compose CLI runs on the control plane, not on the VM. */
export const CLOUD_INIT = `#cloud-config
package_update: true
packages:
  - docker.io
runcmd:
  - systemctl enable --now docker
  - usermod -aG docker {{username}}
`;

export interface AzureProviderOptions {
  vmRepository: VmRepository;
  vault: Vault;
  credential: TokenCredential;
  subscriptionId: string;
  resourceGroup: string;
  location: string;
  subnetId: string;
  armUrl: string;
  /** Trusted CAs for the ARM endpoint (a private cloud or a test stand-in); the public CAs otherwise. */
  armCa?: string;
  adminUsername?: string;
  sshPort?: number;
  pollIntervalMs?: number;
  /** How long to wait for Docker to answer after the VM reports running (cloud-init is still installing it). */
  readyTimeoutMs?: number;
}

const powerState = (vm: { instanceView?: { statuses?: { code?: string }[] } }) =>
  vm.instanceView?.statuses
    ?.find((s) => s.code?.startsWith('PowerState/'))
    ?.code?.slice('PowerState/'.length);

/**
 * An Azure VM per workspace node: a NIC on the private subnet (no public IP), an Ubuntu VM of the chosen size whose
 * cloud-init installs Docker, reached over SSH on its private address with a key generated for it (kept only
 * encrypted). All calls go through the Azure SDK to `armUrl`.
 */
export function createAzureVmProvider(options: AzureProviderOptions): VmProvider {
  const clientOptions = {
    endpoint: options.armUrl,
    credentialScopes: ['https://management.azure.com/.default'],
    ...(options.armCa ? { tlsOptions: { ca: options.armCa } } : {}),
  };
  const compute = new ComputeManagementClient(options.credential, options.subscriptionId, clientOptions);
  const network = new NetworkManagementClient(options.credential, options.subscriptionId, clientOptions);
  const lro = { updateIntervalInMs: options.pollIntervalMs ?? 5000 };
  const username = options.adminUsername ?? 'slipway';
  const sshPort = options.sshPort ?? 22;
  const rg = options.resourceGroup;

  async function waitForDocker(vm: VmRow, signal?: AbortSignal) {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 10 * 60_000);
    for (;;) {
      try {
        const target = await createSshTarget(await endpointOf(vm), {
          publishAddress: vm.privateIp ?? undefined,
        });
        await target.docker.ping();
        await target.close();
        return;
      } catch (error) {
        if (Date.now() > deadline || signal?.aborted) {
          throw new Error(`The VM's Docker Engine did not answer: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
    }
  }

  async function endpointOf(vm: VmRow) {
    const data = vm.providerData as AzureProviderData;
    if (!vm.privateIp) throw new Error(`VM ${vm.name} has no private address yet`);
    return {
      host: vm.privateIp,
      port: data.sshPort,
      username: data.username,
      privateKey: await options.vault.decrypt(data.keyEnc),
      hostKeySha256: data.hostKeySha256,
    };
  }

  async function create(
    workspace: WorkspaceRef,
    size: VmSize,
    index: number,
    signal?: AbortSignal,
  ): Promise<VmRow> {
    const name = nodeVmNameFor('azure', workspace.id, index);
    const keys = ssh2.utils.generateKeyPairSync('ed25519', { comment: name });
    // The row exists before anything is created in Azure, so a crash mid-way leaves something to clean up.
    let vm = await options.vmRepository.insert({
      name,
      provider: 'azure',
      userId: workspace.userId,
      size: size.id,
      location: options.location,
      status: 'creating',
      workspaceId: workspace.id,
      nodeIndex: index,
      providerData: {
        resourceGroup: rg,
        username,
        sshPort,
        keyEnc: await options.vault.encrypt(keys.private),
      } satisfies AzureProviderData,
    });
    const tags = {
      'slipway-workspace': workspace.id,
      'slipway-user': workspace.userId,
      'slipway-node': String(index),
    };
    const nic = await network.networkInterfaces.beginCreateOrUpdateAndWait(
      rg,
      `${name}-nic`,
      {
        location: options.location,
        tags,
        ipConfigurations: [
          { name: 'ipconfig1', subnet: { id: options.subnetId }, privateIPAllocationMethod: 'Dynamic' },
        ],
      },
      { ...lro, abortSignal: signal },
    );
    const privateIp = nic.ipConfigurations?.[0]?.privateIPAddress;
    const parameters: VirtualMachine = {
      location: options.location,
      tags,
      hardwareProfile: { vmSize: size.id },
      storageProfile: {
        imageReference: {
          publisher: 'Canonical',
          offer: '0001-com-ubuntu-server-jammy',
          sku: '22_04-lts-gen2',
          version: 'latest',
        },
        osDisk: {
          createOption: 'FromImage',
          deleteOption: 'Delete',
          managedDisk: { storageAccountType: 'StandardSSD_LRS' },
        },
      },
      osProfile: {
        computerName: name.slice(0, 63),
        adminUsername: username,
        customData: Buffer.from(CLOUD_INIT.replaceAll('{{username}}', username)).toString('base64'),
        linuxConfiguration: {
          disablePasswordAuthentication: true,
          ssh: { publicKeys: [{ path: `/home/${username}/.ssh/authorized_keys`, keyData: keys.public }] },
        },
      },
      networkProfile: { networkInterfaces: [{ id: nic.id, primary: true, deleteOption: 'Delete' }] },
    };
    const created = await compute.virtualMachines.beginCreateOrUpdateAndWait(rg, name, parameters, {
      ...lro,
      abortSignal: signal,
    });
    const view = await compute.virtualMachines.instanceView(rg, name);
    vm = await options.vmRepository.update(vm.id, {
      privateIp: privateIp ?? null,
      status: powerState({ instanceView: view }) === 'running' ? 'running' : 'starting',
      providerData: {
        ...(vm.providerData as AzureProviderData),
        vmResourceId: created.id,
        nicResourceId: nic.id,
      },
    });
    await waitForDocker(vm, signal);
    // Pin the host key the VM presented on first contact.
    const { client, hostKeySha256 } = await openSsh(await endpointOf(vm));
    client.end();
    return options.vmRepository.update(vm.id, {
      status: 'running',
      providerData: { ...(vm.providerData as AzureProviderData), hostKeySha256 },
    });
  }

  /** Node `index` of the workspace: its VM if it runs, else made anew (a half-made one removed first). */
  async function ensureIndex(
    workspace: WorkspaceRef,
    size: VmSize,
    index: number,
    signal?: AbortSignal,
  ): Promise<VmRow> {
    const existing = await options.vmRepository.findByName(nodeVmNameFor('azure', workspace.id, index));
    if (existing?.status === 'running') return existing;
    if (existing) await remove(existing); // half-created by a run that died: start clean
    return create(workspace, size, index, signal);
  }

  async function remove(vm: VmRow) {
    const ignoreMissing = (error: { statusCode?: number }) => {
      if (error.statusCode !== 404) throw error;
    };
    await compute.virtualMachines.beginDeleteAndWait(rg, vm.name, lro).catch(ignoreMissing);
    await network.networkInterfaces.beginDeleteAndWait(rg, `${vm.name}-nic`, lro).catch(ignoreMissing);
    await options.vmRepository.remove(vm.id);
  }

  // Ports are published on the VM's private address: Caddy on the control plane reaches them there.
  const connect = async (vm: VmRow) =>
    createSshTarget(await endpointOf(vm), { publishAddress: vm.privateIp ?? '127.0.0.1' });

  return {
    name: 'azure',
    nodeLimit: NODE_LIMITS.azure(),
    ensure: (workspace, size, ensureOptions) => ensureIndex(workspace, size, 1, ensureOptions?.signal),
    ensureNodes(workspace, size, count, ensureOptions) {
      return ensureNodeVms(
        this.nodeLimit,
        count,
        () => ensureIndex(workspace, size, 1, ensureOptions?.signal),
        (index) => ensureIndex(workspace, size, index, ensureOptions?.signal),
      );
    },
    releaseNode: remove,
    connect,
    async nodeEngine(vm) {
      const target = await connect(vm);
      if (!vm.privateIp) throw new Error(`VM ${vm.name} has no private address yet`);
      return {
        engine: { name: vm.name, address: vm.privateIp, docker: target.docker },
        close: () => target.close(),
      };
    },
    async describe(vm) {
      try {
        const view = await compute.virtualMachines.instanceView(rg, vm.name);
        return { status: powerState({ instanceView: view }) ?? 'unknown', privateIp: vm.privateIp };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404)
          return { status: 'deleted', privateIp: null };
        throw error;
      }
    },
    delete: remove,
  };
}
