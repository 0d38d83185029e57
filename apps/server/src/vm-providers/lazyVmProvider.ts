import type { VmProvider } from './vmProvider.js';

/**
 * A provider whose module (and SDK: Azure's, ssh2) is imported on its first use rather than at start-up, so a
 * server that never deploys to that kind of VM never loads it. The import runs once; a failed import is
 * retried on the next call rather than remembered.
 */
export function lazyVmProvider(name: VmProvider['name'], load: () => Promise<VmProvider>): VmProvider {
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
    ensure: async (...args) => (await provider()).ensure(...args),
    connect: async (...args) => (await provider()).connect(...args),
    describe: async (...args) => (await provider()).describe(...args),
    delete: async (...args) => (await provider()).delete(...args),
  };
}
