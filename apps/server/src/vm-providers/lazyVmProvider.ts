import type { NodeLimit, VmProvider } from './vmProvider.js';

/**
 * A provider whose module (and SDK: Azure's, ssh2) is imported on its first use rather than at start-up, so a
 * server that never deploys to that kind of VM never loads it. The import runs once; a failed import is
 * retried on the next call rather than remembered.
 */
export function lazyVmProvider(
  name: VmProvider['name'],
  nodeLimit: NodeLimit,
  load: () => Promise<VmProvider>,
): VmProvider {
  let loading: Promise<VmProvider> | undefined;
  const provider = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    name,
    // Known from the configuration alone: the settings route asks it without loading the SDK.
    nodeLimit,
    ensure: async (...args) => (await provider()).ensure(...args),
    ensureNodes: async (...args) => (await provider()).ensureNodes(...args),
    releaseNode: async (...args) => (await provider()).releaseNode(...args),
    nodeEngine: async (...args) => (await provider()).nodeEngine(...args),
    connect: async (...args) => (await provider()).connect(...args),
    describe: async (...args) => (await provider()).describe(...args),
    delete: async (...args) => (await provider()).delete(...args),
  };
}
