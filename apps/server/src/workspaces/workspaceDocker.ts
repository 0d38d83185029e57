import type Docker from 'dockerode';
import { LABELS } from '../infra/docker/conventions.js';
import { createDocker, engineKey as engineKeyOf } from '../infra/docker/dockerode.js';
import type { WorkspaceRow } from './workspacesRepository.js';

/**
 * The Docker Engine of the VM a workspace runs on. Today every VM provider ends at the local engine or
 * one reached the same way; a multi-VM setup passes its own function and nothing else changes.
 */
export type DockerFor = (workspace: Pick<WorkspaceRow, 'vmId'>) => Docker;

export function localDockerFor(socketPath: string): DockerFor {
  const docker = createDocker({ socketPath });
  return () => docker;
}

/** A stable name for an engine, for locks and for not following the same engine twice. */
export const engineKey = (docker: Docker): string => engineKeyOf(docker);

export type ContainerSummary = Docker.ContainerInfo;

/** Whether a container is Slipway's own `system` container rather than one of the user's services. */
export const isSystemContainer = (container: { Labels?: Record<string, string> }) =>
  container.Labels?.[LABELS.system] === 'true';

/** The Compose service a container runs, else its name without the leading slash (one name for all replicas). */
export function baseServiceName(container: { Labels?: Record<string, string>; Names?: string[] }): string {
  return container.Labels?.[LABELS.composeService] ?? container.Names?.[0]?.replace(/^\//, '') ?? 'app';
}

/**
 * What logs, health rows and alerts call a container: its service, or for one replica of a replicated service
 * (labelled so by runtimePlan.ts) `{service}.{n}`, Compose's number of it.
 */
export function serviceName(container: { Labels?: Record<string, string>; Names?: string[] }): string {
  const base = baseServiceName(container);
  const number = container.Labels?.[LABELS.replicas] ? container.Labels[LABELS.composeNumber] : undefined;
  return number ? `${base}.${number}` : base;
}

/** The user's containers of a workspace (running or not), never the `system` container. */
export async function listServiceContainers(
  docker: Docker,
  workspaceId: string,
): Promise<ContainerSummary[]> {
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [`${LABELS.workspaceId}=${workspaceId}`] },
  });
  return containers.filter((container) => !isSystemContainer(container));
}

/**
 * The user's containers of every workspace on an engine, by workspace id: one list call, however many
 * workspaces it runs (what a pass over all workspaces reads instead of one list per workspace).
 */
export async function serviceContainersByWorkspace(docker: Docker): Promise<Map<string, ContainerSummary[]>> {
  const containers = await docker.listContainers({ all: true, filters: { label: [LABELS.workspaceId] } });
  const byWorkspace = new Map<string, ContainerSummary[]>();
  for (const container of containers) {
    if (isSystemContainer(container)) continue;
    const id = container.Labels[LABELS.workspaceId]!;
    byWorkspace.set(id, [...(byWorkspace.get(id) ?? []), container]);
  }
  return byWorkspace;
}
