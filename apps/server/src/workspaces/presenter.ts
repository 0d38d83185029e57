import {
  type ServiceState,
  triggerOf,
  type WorkspaceContainer,
  type WorkspaceDetails,
  type WorkspaceNodes,
  type WorkspaceSummary,
} from '@slipway/contract';
import { type ContainerSummary, serviceName } from './workspaceDocker.js';
import type { WorkspaceRow } from './workspacesRepository.js';

/** The workspace as the dashboard lists it, with its node count and each node's state (`nodes`). */
export function presentWorkspace(row: WorkspaceRow, nodes: WorkspaceNodes): WorkspaceSummary {
  return {
    workspace_name: row.name,
    repo_url: row.repoUrl,
    repo_owner: row.repoOwner,
    repo_name: row.repoName,
    branch: row.branch,
    status: row.status,
    vm_config: { vm_size: row.vmSize },
    service_urls: row.serviceUrls,
    created_at: row.createdAt.toISOString(),
    docker_image_name: row.dockerImageName,
    log_watcher: {
      last_error: row.lastError,
      last_error_time: row.lastErrorTime?.toISOString() ?? null,
      status: row.status === 'live' ? 'active' : 'inactive',
    },
    node_count: nodes.node_count,
    nodes: nodes.nodes,
  };
}

export function presentContainer(container: ContainerSummary): WorkspaceContainer {
  return {
    id: container.Id.slice(0, 12),
    name: container.Names[0]?.replace(/^\//, '') ?? '',
    service: serviceName(container),
    image: container.Image,
    state: container.State,
    status: container.Status,
  };
}

export function presentDetails(
  row: WorkspaceRow,
  extra: {
    nodes: WorkspaceNodes;
    services: string[];
    containers: ContainerSummary[];
    serviceStates: ServiceState[];
    latest:
      | { id: string; status: string; commitSha: string | null; workflowType: string; createdAt: Date }
      | undefined;
  },
): WorkspaceDetails {
  return {
    ...presentWorkspace(row, extra.nodes),
    services: extra.services,
    containers: extra.containers.map(presentContainer),
    service_states: extra.serviceStates,
    latest_deployment: extra.latest
      ? {
          id: extra.latest.id,
          status: extra.latest.status,
          commit_sha: extra.latest.commitSha,
          trigger: triggerOf(extra.latest.workflowType),
          created_at: extra.latest.createdAt.toISOString(),
        }
      : null,
  };
}
