import { engineCall, type NodeEngine, SwarmCallError } from './swarmCall.js';

export interface OverlayNetwork {
  name: string;
  /** IPsec between nodes; ask only where the nodes' kernels hold ESP (see docs/guide/cluster.md). */
  encrypted: boolean;
  /** No route out of the cluster (Compose's `internal: true`). */
  internal?: boolean;
  labels: Record<string, string>;
}

type RawNetwork = { Id?: string; Name?: string; Options?: Record<string, string>; Internal?: boolean };

/**
 * Creates a swarm-scoped overlay network unless one of that name exists; returns its id. Attachable, so a one-off
 * container (a migration, a probe) can join it too. An existing network whose encryption differs is an error:
 * Swarm cannot change it in place.
 */
export async function ensureOverlayNetwork(manager: NodeEngine, network: OverlayNetwork): Promise<string> {
  const existing = (await engineCall('list networks', (abortSignal) =>
    manager.docker.listNetworks({ filters: { name: [network.name], driver: ['overlay'] }, abortSignal }),
  )) as RawNetwork[];
  const found = existing.find((item) => item.Name === network.name);
  if (found?.Id) {
    const encrypted = found.Options?.encrypted !== undefined;
    if (encrypted !== network.encrypted) {
      throw new Error(
        `The network ${network.name} is ${encrypted ? '' : 'not '}encrypted and cannot be changed while services use it`,
      );
    }
    return found.Id;
  }
  const created = await engineCall(`create network ${network.name}`, (abortSignal) =>
    manager.docker.createNetwork({
      Name: network.name,
      Driver: 'overlay',
      CheckDuplicate: true,
      Attachable: true,
      Internal: network.internal === true,
      Options: network.encrypted ? { encrypted: 'true' } : {},
      Labels: network.labels,
      abortSignal,
    }),
  );
  return created.id;
}

/** Removes a network by name or id; one already gone is fine. */
export async function removeNetwork(manager: NodeEngine, nameOrId: string): Promise<void> {
  try {
    await engineCall(`remove network ${nameOrId}`, (abortSignal) =>
      manager.docker.getNetwork(nameOrId).remove({ abortSignal }),
    );
  } catch (error) {
    if (!(error instanceof SwarmCallError && error.statusCode === 404)) throw error;
  }
}

/** The overlay networks carrying these labels (a workspace's, for tear-down). */
export async function listOverlayNetworks(manager: NodeEngine, labels: Record<string, string>) {
  const raw = (await engineCall('list networks', (abortSignal) =>
    manager.docker.listNetworks({
      filters: { driver: ['overlay'], label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) },
      abortSignal,
    }),
  )) as RawNetwork[];
  return raw.map((item) => ({ id: item.Id ?? '', name: item.Name ?? '' }));
}
