import { readFile } from 'node:fs/promises';
import { createDocker } from '../infra/docker/dockerode.js';
import type { Vault } from '../infra/vault/vault.js';
import { engineRootDir } from './engineDisk.js';
import { forwardDockerSocket, forwardTcp, openSsh, remoteFreeBytes, type SshEndpoint } from './sshTunnel.js';
import type { DockerTarget, VmProvider, VmRow } from './vmProvider.js';
import { type VmRepository, vmNameFor } from './vmRepository.js';

interface SshProviderData {
  host: string;
  port: number;
  username: string;
  /** The private key, encrypted by the vault. */
  keyEnc: string;
  hostKeySha256?: string;
}

/** A Docker Engine reached over SSH: the engine socket forwarded locally, published ports through the tunnel. */
export async function createSshTarget(
  endpoint: SshEndpoint,
  options: { remoteSocket?: string; publishAddress?: string } = {},
): Promise<DockerTarget> {
  const remoteSocket = options.remoteSocket ?? '/var/run/docker.sock';
  const publishAddress = options.publishAddress ?? '127.0.0.1';
  const { client } = await openSsh(endpoint);
  const tunnel = await forwardDockerSocket(client, remoteSocket).catch((error) => {
    client.end();
    throw error;
  });
  const docker = createDocker({ socketPath: tunnel.socketPath });
  return {
    docker,
    composeEnv: { DOCKER_HOST: `unix://${tunnel.socketPath}` },
    // Health checks reach published ports through the SSH connection, wherever they are bound on the server.
    publishAddress,
    connect: (port) => forwardTcp(client, publishAddress, port),
    // On loopback, Caddy is expected on the server itself; on a private address, anywhere in the network.
    upstream: (port) => `${publishAddress}:${port}`,
    freeDiskBytes: async () => {
      const dir = await engineRootDir(docker);
      return dir ? remoteFreeBytes(client, dir) : undefined;
    },
    async close() {
      await tunnel.close();
      client.end();
    },
  };
}

/**
 * An existing server with Docker, reached over SSH. Each workspace gets a VM row pointing at the server (with
 * the key encrypted by the vault and the server's host key pinned); isolation is the workspace's Compose project
 * and network, as with the local provider.
 */
export function createSshVmProvider(deps: {
  vmRepository: VmRepository;
  vault: Vault;
  host: string;
  port: number;
  username: string;
  privateKeyFile: string;
  remoteDockerSocket?: string;
}): VmProvider {
  const remoteSocket = deps.remoteDockerSocket ?? '/var/run/docker.sock';

  async function endpointOf(vm: VmRow): Promise<SshEndpoint> {
    const data = vm.providerData as SshProviderData;
    return {
      host: data.host,
      port: data.port,
      username: data.username,
      privateKey: await deps.vault.decrypt(data.keyEnc),
      hostKeySha256: data.hostKeySha256,
    };
  }

  async function connect(vm: VmRow): Promise<DockerTarget> {
    return createSshTarget(await endpointOf(vm), { remoteSocket });
  }

  return {
    name: 'ssh',
    async ensure(workspace, size) {
      const name = vmNameFor('ssh', workspace.id);
      const existing = await deps.vmRepository.findByName(name);
      if (existing) return existing;
      const privateKey = await readFile(deps.privateKeyFile, 'utf8');
      // First contact pins the host key; every later connection must present the same one.
      const { client, hostKeySha256 } = await openSsh({
        host: deps.host,
        port: deps.port,
        username: deps.username,
        privateKey,
      });
      client.end();
      const providerData: SshProviderData = {
        host: deps.host,
        port: deps.port,
        username: deps.username,
        keyEnc: await deps.vault.encrypt(privateKey),
        hostKeySha256,
      };
      return deps.vmRepository.insert({
        name,
        provider: 'ssh',
        userId: workspace.userId,
        size: size.id,
        location: `${deps.host}:${deps.port}`,
        status: 'running',
        privateIp: deps.host,
        providerData,
      });
    },
    connect,
    async describe(vm) {
      try {
        const target = await connect(vm);
        await target.docker.ping();
        await target.close();
        return { status: 'running', privateIp: vm.privateIp };
      } catch {
        return { status: 'unreachable', privateIp: vm.privateIp };
      }
    },
    async delete(vm) {
      // The server is not ours to delete; only its record for this workspace goes.
      await deps.vmRepository.remove(vm.id);
    },
  };
}
