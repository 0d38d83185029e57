import { describe, expect, it } from 'vitest';
import { lazyVmProvider } from './lazyVmProvider.js';
import type { VmProvider, VmRow } from './vmProvider.js';

describe('a VM provider loaded on first use', () => {
  it('imports nothing until called, once for every call after, and again after a failed import', async () => {
    let loads = 0;
    let fail = true;
    const real = {
      name: 'ssh',
      describe: async () => ({ status: 'running', privateIp: null }),
    } as unknown as VmProvider;
    const limit = { max: 2, reason: 'one more server' };
    const provider = lazyVmProvider('ssh', limit, async () => {
      loads++;
      if (fail) throw new Error('module missing');
      return real;
    });
    expect(provider.name).toBe('ssh');
    expect(provider.nodeLimit).toBe(limit);
    expect(loads).toBe(0);
    const vm = {} as VmRow;
    await expect(provider.describe(vm)).rejects.toThrow('module missing');
    fail = false;
    await expect(provider.describe(vm)).resolves.toEqual({ status: 'running', privateIp: null });
    await provider.describe(vm);
    expect(loads).toBe(2);
  });
});
