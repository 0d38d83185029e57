import { describe, expect, it } from 'vitest';
import { listContainers } from './containerListing';
import type { ContainerMetrics } from './containerMetrics';

const card = (
  name: string,
  workspace: string | null,
  owner: string | null,
  memory: number,
): ContainerMetrics => ({
  name,
  id: name,
  shortId: name,
  image: `${name}:latest`,
  workspace,
  service: workspace ? 'web' : null,
  owner,
  cpu: { usageRate: 0, usagePercent: 0 },
  memory: { workingSet: memory, cache: 0, rss: 0, limit: 0, usageRate: 0, usagePercent: 0 },
  network: { rxBytes: 0, txBytes: 0 },
  timestamp: '2026-01-01T00:00:00Z',
});

const all = [card('c', 'shop', 'linus', 10), card('a', null, null, 30), card('b', 'blog', 'ada', 20)];

describe('listContainers', () => {
  it('sorts by workspace (unowned last), owner or memory', () => {
    expect(listContainers(all, '', 'workspace').map((c) => c.name)).toEqual(['b', 'c', 'a']);
    expect(listContainers(all, '', 'owner').map((c) => c.name)).toEqual(['b', 'c', 'a']);
    expect(listContainers(all, '', 'memory').map((c) => c.name)).toEqual(['a', 'b', 'c']);
  });

  it('filters on workspace, owner, image and name', () => {
    expect(listContainers(all, 'LINUS', 'name').map((c) => c.name)).toEqual(['c']);
    expect(listContainers(all, 'blog', 'name').map((c) => c.name)).toEqual(['b']);
    expect(listContainers(all, 'a:latest', 'name').map((c) => c.name)).toEqual(['a']);
    expect(listContainers(all, 'nothing', 'name')).toEqual([]);
  });
});
