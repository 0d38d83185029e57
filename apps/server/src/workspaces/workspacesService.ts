import type { ServiceState } from '@slipway/contract';
import type { Logger } from 'pino';
import { liveServiceState } from './liveServiceState.js';
import { presentDetails, presentWorkspace } from './presenter.js';
import {
  baseServiceName,
  type ContainerSummary,
  type DockerFor,
  listServiceContainers,
  serviceName,
} from './workspaceDocker.js';
import type { WorkspaceRow, WorkspacesRepository } from './workspacesRepository.js';

/** What the dashboard reads about a user's running apps. Every call is scoped to the owner. */
export function createWorkspacesService(deps: {
  workspaces: WorkspacesRepository;
  /** The workspace's newest deployment (deployments/ own the table). */
  latestDeployment: (
    row: WorkspaceRow,
  ) => Promise<
    | { id: string; status: string; commitSha: string | null; workflowType: string; createdAt: Date }
    | undefined
  >;
  /** The services the workspace's stored logs name: what the page shows when no container or URL names any. */
  loggedServices: (userId: string, workspaceName: string) => Promise<string[]>;
  dockerFor: DockerFor;
  logger: Logger;
}) {
  /** The workspace's containers, or none when its VM cannot be reached (the page still shows the rest). */
  async function containersOf(row: WorkspaceRow): Promise<ContainerSummary[]> {
    try {
      return await listServiceContainers(deps.dockerFor(row), row.id);
    } catch (error) {
      deps.logger.warn({ err: error, workspace: row.id }, 'cannot list workspace containers');
      return [];
    }
  }

  async function servicesOf(row: WorkspaceRow, containers: ContainerSummary[]): Promise<string[]> {
    const names = new Set([...containers.map(baseServiceName), ...Object.keys(row.serviceUrls)]);
    if (names.size === 0) {
      for (const name of await deps.loggedServices(row.userId, row.name)) names.add(name);
    }
    return [...names].sort();
  }

  /** Each service's state now (its first container's), with its public URL when it has one. */
  async function statesOf(row: WorkspaceRow, containers: ContainerSummary[]): Promise<ServiceState[]> {
    const docker = deps.dockerFor(row);
    const states = new Map<string, ServiceState>();
    for (const container of containers) {
      const service = serviceName(container);
      if (states.has(service)) continue;
      const info = await docker
        .getContainer(container.Id)
        .inspect()
        .catch(() => undefined);
      if (!info) continue;
      states.set(service, {
        service,
        ...liveServiceState(info),
        url: row.serviceUrls[baseServiceName(container)] ?? null,
        message: null,
      });
    }
    return [...states.values()].sort((a, b) => a.service.localeCompare(b.service));
  }

  return {
    /** The user's workspaces; with `only` (an API token limited to some), just those. */
    async list(userId: string, only?: readonly string[]) {
      const rows = await deps.workspaces.listForUser(userId);
      return rows.filter((row) => !only || only.includes(row.name)).map(presentWorkspace);
    },

    async details(userId: string, name: string) {
      const row = await deps.workspaces.findOwned(userId, name);
      const [containers, latest] = await Promise.all([containersOf(row), deps.latestDeployment(row)]);
      return presentDetails(row, {
        services: await servicesOf(row, containers),
        containers,
        serviceStates: await statesOf(row, containers),
        latest,
      });
    },

    async services(userId: string, name: string) {
      const row = await deps.workspaces.findOwned(userId, name);
      return { services: await servicesOf(row, await containersOf(row)) };
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
