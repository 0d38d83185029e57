import type { CadvisorContainerInfo, SlipwayContainerOwner } from '@slipway/contract';
import { eq, inArray } from 'drizzle-orm';
import type { ContainerMonitor } from '../infra/cadvisor/containerMonitor.js';
import type { Db } from '../infra/db/client.js';
import { users, workspaces } from '../infra/db/schema.js';
import { LABELS } from '../infra/docker/conventions.js';

type Labels = Record<string, string>;
const labelsOf = (container: CadvisorContainerInfo): Labels => ({
  ...(container.spec?.labels ?? {}),
  ...(container.labels ?? {}),
});

/** Workspace name and owner login for each workspace id, in one query. */
async function workspaceOwners(db: Db, ids: string[]): Promise<Map<string, { name: string; owner: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: workspaces.id, name: workspaces.name, owner: users.login })
    .from(workspaces)
    .innerJoin(users, eq(users.id, workspaces.userId))
    .where(inArray(workspaces.id, ids));
  return new Map(rows.map((row) => [row.id, { name: row.name, owner: row.owner }]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The admin monitor's containers, each told apart by its workspace, Compose service and owner: read
 * from the labels Slipway puts on every container it starts, named from the database.
 */
export function withContainerOwners(monitor: ContainerMonitor, db: Db): ContainerMonitor {
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
      const owners = await workspaceOwners(db, ids);
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
