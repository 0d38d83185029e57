import type { Config } from '../config/config.js';
import type { Vault } from '../infra/vault/vault.js';
import { lazyVmProvider } from '../vm-providers/lazyVmProvider.js';
import { createLocalVmProvider } from '../vm-providers/local.js';
import { NODE_LIMITS } from '../vm-providers/nodeVms.js';
import type { VmProvider } from '../vm-providers/vmProvider.js';
import type { VmRepository } from '../vm-providers/vmRepository.js';

/**
 * The provider VM_PROVIDER names; `local` needs nothing, `ssh` and `azure` need their settings (checked here,
 * at start-up). Their modules and SDKs (ssh2, Azure's) are imported only by the provider chosen, on first use.
 */
export function chooseVmProvider(deps: {
  config: Config;
  vmRepository: VmRepository;
  vault: Vault;
}): VmProvider {
  const { vmRepository } = deps;
  const { vm } = deps.config;
  switch (vm.provider) {
    case 'ssh': {
      const { host, port, user, privateKeyFile } = vm.ssh;
      if (!host || !user || !privateKeyFile) {
        throw new Error('VM_PROVIDER=ssh needs SSH_HOST, SSH_USER and SSH_PRIVATE_KEY_FILE');
      }
      const clusterHosts = vm.cluster.sshHosts;
      return lazyVmProvider('ssh', NODE_LIMITS.ssh(clusterHosts.length), async () =>
        (await import('../vm-providers/ssh.js')).createSshVmProvider({
          vmRepository,
          vault: deps.vault,
          host,
          port,
          username: user,
          privateKeyFile,
          clusterHosts,
        }),
      );
    }
    case 'azure': {
      const { subscriptionId, resourceGroup, subnetId, location, armUrl } = vm.azure;
      if (!subscriptionId || !resourceGroup || !subnetId) {
        throw new Error(
          'VM_PROVIDER=azure needs AZURE_SUBSCRIPTION_ID, AZURE_RESOURCE_GROUP and AZURE_SUBNET_ID',
        );
      }
      return lazyVmProvider('azure', NODE_LIMITS.azure(), async () => {
        const [{ createAzureVmProvider }, { DefaultAzureCredential }] = await Promise.all([
          import('../vm-providers/azure.js'),
          import('@azure/identity'),
        ]);
        return createAzureVmProvider({
          vmRepository,
          vault: deps.vault,
          // Managed identity on Azure, or AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET elsewhere.
          credential: new DefaultAzureCredential(),
          subscriptionId,
          resourceGroup,
          location,
          subnetId,
          armUrl,
        });
      });
    }
    default:
      return createLocalVmProvider({ vmRepository, dockerSocket: vm.dockerSocket, cluster: vm.cluster });
  }
}
