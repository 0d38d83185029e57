import type { CadvisorContainerInfo, SlipwayContainerOwner } from '@slipway/contract';
import type { ContainerMonitor } from '../infra/cadvisor/containerMonitor.js';
import { LABELS } from '../infra/docker/conventions.js';
import type { WorkspaceInventory } from '../workspaces/workspaceInventory.js';

type Labels = Record<string, string>;
const labelsOf = (container: CadvisorContainerInfo): Labels => ({
  ...(container.spec?.labels ?? {}),
  ...(container.labels ?? {}),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The admin monitor's containers, each told apart by its workspace, Compose service and owner: read
 * from the labels Slipway puts on every container it starts, named from the database.
 */
export function withContainerOwners(
  monitor: ContainerMonitor,
  workspaces: WorkspaceInventory,
): ContainerMonitor {
  return {
    source: monitor.source,
    machine: () => monitor.machine(),
    async containers() {
      const root = await monitor.containers();
      const subcontainers = root.subcontainers ?? [];
      const full = subcontainers.filter((c): c is CadvisorContainerInfo => 'stats' in c);
      const ids = [
        ...new Set(
          full
            .map((c) => labelsOf(c)[LABELS.workspaceId])
            .filter((id): id is string => !!id && UUID.test(id)),
        ),
      ];
      const owners = await workspaces.namesAndOwners(ids);
      const present = (container: CadvisorContainerInfo): CadvisorContainerInfo => {
        const labels = labelsOf(container);
        const found = owners.get(labels[LABELS.workspaceId] ?? '');
        const slipway: SlipwayContainerOwner = {
          workspace: found?.name ?? null,
          service: labels[LABELS.system] === 'true' ? 'system' : (labels[LABELS.composeService] ?? null),
          owner: found?.owner ?? null,
        };
        return { ...container, slipway };
      };
      return {
        ...root,
        subcontainers: subcontainers.map((c) => ('stats' in c ? present(c as CadvisorContainerInfo) : c)),
      };
    },
  };
}
