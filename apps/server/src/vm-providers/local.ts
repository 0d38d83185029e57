import net from 'node:net';
import { createDocker } from '../infra/docker/dockerode.js';
import { localFreeBytes } from './engineDisk.js';
import type { DockerTarget, VmProvider } from './vmProvider.js';
import { type VmRepository, vmNameFor } from './vmRepository.js';

/** Opens a TCP connection and resolves once it is established. */
export function tcpConnect(host: string, port: number, timeoutMs = 3000): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`connect ${host}:${port} timed out`)), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * The embedded default: this machine's Docker Engine stands in for every workspace's VM. Isolation comes from
 * the per-workspace Compose project and network; the VM size's CPU and memory become container limits.
 */
export function createLocalVmProvider(deps: {
  vmRepository: VmRepository;
  dockerSocket: string;
}): VmProvider {
  const target = (): DockerTarget => {
    // Every engine call has its deadline (infra/docker/engineDeadlines.ts).
    const docker = createDocker({ socketPath: deps.dockerSocket });
    return {
      docker,
      composeEnv: { DOCKER_HOST: `unix://${deps.dockerSocket}` },
      publishAddress: '127.0.0.1',
      connect: (port) => tcpConnect('127.0.0.1', port),
      upstream: (port) => `127.0.0.1:${port}`,
      freeDiskBytes: () => localFreeBytes(docker),
      close: async () => {},
    };
  };
  return {
    name: 'local',
    async ensure(workspace, size) {
      return deps.vmRepository.insert({
        name: vmNameFor('local', workspace.id),
        provider: 'local',
        userId: workspace.userId,
        size: size.id,
        location: 'local',
        status: 'running',
        privateIp: '127.0.0.1',
      });
    },
    async connect() {
      return target();
    },
    async describe(vm) {
      try {
        await target().docker.ping();
        return { status: 'running', privateIp: vm.privateIp };
      } catch {
        return { status: 'unreachable', privateIp: vm.privateIp };
      }
    },
    async delete(vm) {
      await deps.vmRepository.remove(vm.id);
    },
  };
}
