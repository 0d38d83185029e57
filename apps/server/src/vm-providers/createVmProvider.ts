import { DefaultAzureCredential } from '@azure/identity';
import type { Config } from '../config/config.js';
import type { Db } from '../infra/db/client.js';
import type { Vault } from '../infra/vault/vault.js';
import { createAzureVmProvider } from './azure.js';
import { createLocalVmProvider } from './local.js';
import { createSshVmProvider } from './ssh.js';
import type { VmProvider } from './vmProvider.js';
import { createVmRepository } from './vmRepository.js';

/** The provider VM_PROVIDER names; `local` needs nothing, `ssh` and `azure` need their settings. */
export function createVmProvider(deps: { config: Config; db: Db; vault: Vault }): VmProvider {
  const vmRepository = createVmRepository(deps.db);
  const { vm } = deps.config;
  switch (vm.provider) {
    case 'ssh': {
      const { host, port, user, privateKeyFile } = vm.ssh;
      if (!host || !user || !privateKeyFile) {
        throw new Error('VM_PROVIDER=ssh needs SSH_HOST, SSH_USER and SSH_PRIVATE_KEY_FILE');
      }
      return createSshVmProvider({
        vmRepository,
        vault: deps.vault,
        host,
        port,
        username: user,
        privateKeyFile,
      });
    }
    case 'azure': {
      const { subscriptionId, resourceGroup, subnetId, location, armUrl } = vm.azure;
      if (!subscriptionId || !resourceGroup || !subnetId) {
        throw new Error(
          'VM_PROVIDER=azure needs AZURE_SUBSCRIPTION_ID, AZURE_RESOURCE_GROUP and AZURE_SUBNET_ID',
        );
      }
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
    }
    default:
      return createLocalVmProvider({ vmRepository, dockerSocket: vm.dockerSocket });
  }
}
