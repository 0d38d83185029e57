import type { ContainerMetrics } from './containerMetrics';

export type ContainerSort = 'name' | 'workspace' | 'owner' | 'memory' | 'cpu';

export const SORT_OPTIONS: { value: ContainerSort; label: string }[] = [
  { value: 'workspace', label: 'Workspace' },
  { value: 'owner', label: 'Owner' },
  { value: 'name', label: 'Container name' },
  { value: 'memory', label: 'Memory (highest first)' },
  { value: 'cpu', label: 'CPU (highest first)' },
];

const text = (value: string | null) => value ?? '\uffff'; // containers without one sort last

const COMPARE: Record<ContainerSort, (a: ContainerMetrics, b: ContainerMetrics) => number> = {
  name: (a, b) => a.name.localeCompare(b.name),
  workspace: (a, b) =>
    text(a.workspace).localeCompare(text(b.workspace)) || text(a.service).localeCompare(text(b.service)),
  owner: (a, b) => text(a.owner).localeCompare(text(b.owner)) || COMPARE.workspace(a, b),
  memory: (a, b) => b.memory.workingSet - a.memory.workingSet,
  cpu: (a, b) => b.cpu.usagePercent - a.cpu.usagePercent,
};

/** Case-insensitive match on name, workspace, service, image and owner; then sorted. */
export function listContainers(
  containers: readonly ContainerMetrics[],
  filter: string,
  sort: ContainerSort,
): ContainerMetrics[] {
  const needle = filter.trim().toLowerCase();
  const matching = needle
    ? containers.filter((c) =>
        [c.name, c.workspace, c.service, c.image, c.owner].some((field) =>
          field?.toLowerCase().includes(needle),
        ),
      )
    : [...containers];
  return matching.sort((a, b) => COMPARE[sort](a, b) || a.name.localeCompare(b.name));
}
