import { describe, expect, it } from 'vitest';
import { PENDING_DEPLOYMENT_KEY, savePendingDeployment, takePendingDeployment } from './pendingDeployment';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

describe('pending deployment', () => {
  it('round-trips and is removed when taken', () => {
    const store = memoryStorage();
    const pending = {
      selectedRepo: { id: 1, name: 'app', owner: { login: 'me' } },
      selectedBranch: 'main',
      selectedVmSize: 'Standard_B2ats_v2',
      selectedNodes: 3,
      subscriptionId: 'sub_1',
    };
    savePendingDeployment(pending, store);
    expect(takePendingDeployment(store)).toEqual({ ok: true, pending });
    expect(store.getItem(PENDING_DEPLOYMENT_KEY)).toBeNull();
    expect(takePendingDeployment(store)).toEqual({ ok: false, error: 'No deployment data found' });
  });
  it('reads one node from what a Slipway that did not ask for nodes kept', () => {
    const store = memoryStorage();
    store.setItem(
      PENDING_DEPLOYMENT_KEY,
      JSON.stringify({
        selectedRepo: { id: 1, name: 'app', owner: { login: 'me' } },
        selectedBranch: 'main',
      }),
    );
    const read = takePendingDeployment(store);
    expect(read.ok && read.pending.selectedNodes).toBe(1);
  });
  it('reports unparsable data', () => {
    const store = memoryStorage();
    store.setItem(PENDING_DEPLOYMENT_KEY, '{not json');
    expect(takePendingDeployment(store)).toEqual({ ok: false, error: 'Failed to parse deployment data' });
    store.setItem(PENDING_DEPLOYMENT_KEY, '{"selectedBranch":"main"}');
    expect(takePendingDeployment(store)).toEqual({ ok: false, error: 'Failed to parse deployment data' });
  });
});
