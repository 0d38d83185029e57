import type { CadvisorContainerStats } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  buildContainerMetrics,
  containerCandidates,
  cpuUsageRate,
  shouldShowContainer,
  toContainerMetrics,
} from './containerMetrics';

function sample(at: string, cpuNs: number, workingSet = 100 * 1024 * 1024): CadvisorContainerStats {
  return {
    timestamp: at,
    cpu: { usage: { total: cpuNs, user: 0, system: 0 } },
    memory: { usage: workingSet, working_set: workingSet, rss: 60 * 1024 * 1024, cache: 1024 },
    network: { rx_bytes: 2048, tx_bytes: 4096, interfaces: [] },
  };
}
const id = 'a'.repeat(64);
const docker = (overrides: Record<string, unknown> = {}) => ({
  name: `/docker/${id}`,
  id,
  aliases: ['web-1', id],
  namespace: 'docker',
  spec: { image: 'busybox:1.36', memory: { limit: 400 * 1024 * 1024 } },
  stats: [sample('2025-01-01T00:00:00.000Z', 0), sample('2025-01-01T00:00:01.000Z', 500_000_000)],
  ...overrides,
});

describe('shouldShowContainer', () => {
  it('skips invalid data and the root container', () => {
    expect(shouldShowContainer(null)).toBe(false);
    expect(shouldShowContainer('x')).toBe(false);
    expect(shouldShowContainer({ stats: [] })).toBe(false);
    expect(shouldShowContainer({ name: '/', stats: [sample('2025-01-01T00:00:00Z', 1)] })).toBe(false);
  });
  it('skips system slices that are not docker, and user.slice, init.scope, azure.slice', () => {
    const stats = [sample('2025-01-01T00:00:00Z', 1)];
    expect(shouldShowContainer({ name: '/system.slice/cron.service', stats })).toBe(false);
    expect(shouldShowContainer({ name: '/system.slice/docker-abc.scope', stats })).toBe(true);
    expect(shouldShowContainer({ name: '/user.slice/user-1000.slice', stats })).toBe(false);
    expect(shouldShowContainer({ name: '/init.scope', stats })).toBe(false);
    expect(shouldShowContainer({ name: '/azure.slice/walinuxagent.service', stats })).toBe(false);
  });
  it('keeps docker containers with stats and drops those without', () => {
    expect(shouldShowContainer(docker())).toBe(true);
    expect(shouldShowContainer(docker({ stats: [] }))).toBe(false);
    expect(shouldShowContainer({ name: `/docker/${id}` })).toBe(false);
  });
});

describe('cpuUsageRate', () => {
  it('is the machine share used between the last two samples', () => {
    const stats = [sample('2025-01-01T00:00:00Z', 0), sample('2025-01-01T00:00:01Z', 500_000_000)];
    expect(cpuUsageRate(stats, 1)).toBe(0.5);
    expect(cpuUsageRate(stats, 2)).toBe(0.25);
  });
  it('is 0 with one sample and clamped to 0..1', () => {
    expect(cpuUsageRate([sample('2025-01-01T00:00:00Z', 5)], 1)).toBe(0);
    const fast = [sample('2025-01-01T00:00:00Z', 0), sample('2025-01-01T00:00:01Z', 9e9)];
    expect(cpuUsageRate(fast, 1)).toBe(1);
    const backwards = [sample('2025-01-01T00:00:00Z', 9e9), sample('2025-01-01T00:00:01Z', 0)];
    expect(cpuUsageRate(backwards, 1)).toBe(0);
  });
});

describe('toContainerMetrics', () => {
  it('maps name, short id, image, memory, cpu and network', () => {
    const metrics = toContainerMetrics(docker() as never, 2);
    expect(metrics).toMatchObject({
      name: 'web-1',
      shortId: 'aaaaaaaaaaaa',
      image: 'busybox:1.36',
      cpu: { usageRate: 0.25, usagePercent: 25 },
      memory: { workingSet: 100 * 1024 * 1024, limit: 400 * 1024 * 1024, usagePercent: 25, cache: 1024 },
      network: { rxBytes: 2048, txBytes: 4096 },
      timestamp: '2025-01-01T00:00:01.000Z',
    });
  });
  it('treats a limit over 1e15 as unlimited (limit 0, usage 0)', () => {
    const metrics = toContainerMetrics(docker({ spec: { memory: { limit: 9.2e18 } } }) as never, 1);
    expect(metrics?.memory.limit).toBe(0);
    expect(metrics?.memory.usagePercent).toBe(0);
  });
  it('rounds percentages to one decimal', () => {
    const third = docker({ spec: { memory: { limit: 300 * 1024 * 1024 } } });
    expect(toContainerMetrics(third as never, 1)?.memory.usagePercent).toBe(33.3);
  });
});

describe('containerCandidates and buildContainerMetrics', () => {
  it('reads a root container with subcontainers, a list, or a map', () => {
    const root = { name: '/', stats: [], subcontainers: [docker(), { name: '/system.slice' }] };
    expect(containerCandidates(root)).toHaveLength(3);
    expect(containerCandidates([docker()])).toHaveLength(1);
    expect(containerCandidates({ [`/docker/${id}`]: docker() })).toHaveLength(1);
    expect(containerCandidates('nope')).toBeNull();
    expect(buildContainerMetrics(containerCandidates(root) ?? [], 2).map((m) => m.name)).toEqual(['web-1']);
  });
});
