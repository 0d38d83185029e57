import { engineCall, type NodeEngine, SwarmCallError, waitFor } from './swarmCall.js';

/** A node as the managers see it. */
export interface SwarmNode {
  id: string;
  hostname: string;
  /** The address it joined with (its private address). */
  address: string;
  role: 'manager' | 'worker';
  /** `ready` while its engine answers the managers' heartbeats; `down` once they stopped. */
  state: 'ready' | 'down' | 'disconnected' | 'unknown';
  availability: 'active' | 'pause' | 'drain';
  leader: boolean;
  /** For a manager: whether the other managers reach it. */
  managerReachability?: 'reachable' | 'unreachable' | 'unknown';
}

export interface SwarmInitOptions {
  /**
   * Where overlay networks take their subnets (Swarm's default is 10.0.0.0/8): a range the VMs' own network and
   * the single-VM workspaces' pool do not use.
   */
  defaultAddrPool: string;
  /** The /n of each overlay network taken from the pool. */
  subnetSize?: number;
  /**
   * How often nodes report to the managers (Swarm's default: 5 s); a node is marked down after a few missed
   * reports, and its tasks are started elsewhere from then on.
   */
  heartbeatSeconds?: number;
}

/** How many managers a cluster of `nodes` keeps: 1 below three nodes, else 3 (losing one keeps a quorum). */
export const managerCount = (nodes: number) => (nodes >= 3 ? 3 : 1);

/** The swarm an engine belongs to (`inactive` when none), and its node id there. */
export async function swarmMembership(engine: NodeEngine) {
  const info = await engineCall(`docker info on ${engine.name}`, () => engine.docker.info());
  const swarm = (info as { Swarm?: { LocalNodeState?: string; NodeID?: string; ControlAvailable?: boolean } })
    .Swarm;
  return {
    state: swarm?.LocalNodeState ?? 'inactive',
    nodeId: swarm?.NodeID || undefined,
    manager: swarm?.ControlAvailable === true,
  };
}

async function joinTokens(manager: NodeEngine) {
  const swarm = await engineCall('inspect the swarm', () => manager.docker.swarmInspect());
  const tokens = (swarm as { JoinTokens?: { Manager?: string; Worker?: string } }).JoinTokens ?? {};
  if (!tokens.Manager || !tokens.Worker) throw new SwarmCallError('inspect the swarm', 'no join tokens');
  return { manager: tokens.Manager, worker: tokens.Worker };
}

/**
 * Makes the engines one swarm: the first initialises it (when it is in none), the others join — as managers up to
 * {@link managerCount}, else as workers. Engines already in the swarm are left as they are; returns the nodes.
 */
export async function ensureSwarm(nodes: NodeEngine[], options: SwarmInitOptions): Promise<SwarmNode[]> {
  const [first] = nodes;
  if (!first) throw new SwarmCallError('form a swarm', 'no nodes');
  if ((await swarmMembership(first)).state !== 'active') {
    await engineCall(
      `swarm init on ${first.name}`,
      (abortSignal) =>
        first.docker.swarmInit({
          ListenAddr: `${first.address}:2377`,
          AdvertiseAddr: `${first.address}:2377`,
          DataPathAddr: first.address,
          DefaultAddrPool: [options.defaultAddrPool],
          SubnetSize: options.subnetSize ?? 24,
          Spec: { Dispatcher: { HeartbeatPeriod: (options.heartbeatSeconds ?? 5) * 1_000_000_000 } },
          abortSignal,
        }),
      30_000,
    );
  }
  const tokens = await joinTokens(first);
  const wantedManagers = managerCount(nodes.length);
  let managers = (await listSwarmNodes(first)).filter((node) => node.role === 'manager').length;
  for (const node of nodes.slice(1)) {
    if ((await swarmMembership(node)).state === 'active') continue;
    const asManager = managers < wantedManagers;
    await engineCall(
      `swarm join of ${node.name}`,
      (abortSignal) =>
        node.docker.swarmJoin({
          ListenAddr: `${node.address}:2377`,
          AdvertiseAddr: `${node.address}:2377`,
          DataPathAddr: node.address,
          RemoteAddrs: [`${first.address}:2377`],
          JoinToken: asManager ? tokens.manager : tokens.worker,
          abortSignal,
        }),
      60_000,
    );
    if (asManager) managers++;
  }
  return waitFor(
    'every node ready in the swarm',
    async () => {
      const listed = await listSwarmNodes(first);
      const ready = listed.filter((node) => node.state === 'ready');
      return ready.length >= nodes.length ? listed : undefined;
    },
    60_000,
  );
}

type RawNode = {
  ID?: string;
  Version?: { Index?: number };
  Spec?: { Role?: string; Availability?: string; Labels?: Record<string, string> };
  Description?: { Hostname?: string };
  Status?: { State?: string; Addr?: string };
  ManagerStatus?: { Leader?: boolean; Reachability?: string; Addr?: string };
};

function nodeOf(raw: RawNode): SwarmNode {
  const state = raw.Status?.State;
  const availability = raw.Spec?.Availability;
  const reachability = raw.ManagerStatus?.Reachability;
  return {
    id: raw.ID ?? '',
    hostname: raw.Description?.Hostname ?? '',
    // A manager's Status.Addr can read 0.0.0.0; its ManagerStatus holds the advertised address.
    address:
      (raw.Status?.Addr && raw.Status.Addr !== '0.0.0.0'
        ? raw.Status.Addr
        : raw.ManagerStatus?.Addr?.split(':')[0]) ?? '',
    role: raw.Spec?.Role === 'manager' ? 'manager' : 'worker',
    state: state === 'ready' || state === 'down' || state === 'disconnected' ? state : 'unknown',
    availability: availability === 'pause' || availability === 'drain' ? availability : 'active',
    leader: raw.ManagerStatus?.Leader === true,
    ...(reachability
      ? {
          managerReachability:
            reachability === 'reachable' || reachability === 'unreachable' ? reachability : 'unknown',
        }
      : {}),
  };
}

/** Every node of the swarm, asked of a manager. */
export async function listSwarmNodes(manager: NodeEngine): Promise<SwarmNode[]> {
  const raw = await engineCall('list the swarm nodes', (abortSignal) =>
    manager.docker.listNodes({ abortSignal }),
  );
  return (raw as RawNode[]).map(nodeOf);
}

/** Sets a node's availability: `drain` moves its tasks to the other nodes, `active` lets tasks come back. */
export async function setNodeAvailability(
  manager: NodeEngine,
  nodeId: string,
  availability: SwarmNode['availability'],
): Promise<void> {
  const node = manager.docker.getNode(nodeId);
  const raw = (await engineCall(`inspect node ${nodeId}`, (abortSignal) =>
    node.inspect({ abortSignal }),
  )) as RawNode;
  await engineCall(`set node ${nodeId} ${availability}`, (abortSignal) =>
    node.update({
      _query: { version: raw.Version?.Index },
      _body: { ...raw.Spec, Availability: availability },
      abortSignal,
    }),
  );
}

/** Makes a worker a manager or a manager a worker. */
export async function setNodeRole(manager: NodeEngine, nodeId: string, role: SwarmNode['role']) {
  const node = manager.docker.getNode(nodeId);
  const raw = (await engineCall(`inspect node ${nodeId}`, (abortSignal) =>
    node.inspect({ abortSignal }),
  )) as RawNode;
  await engineCall(`make node ${nodeId} a ${role}`, (abortSignal) =>
    node.update({ _query: { version: raw.Version?.Index }, _body: { ...raw.Spec, Role: role }, abortSignal }),
  );
}

/** The engine leaves its swarm (`force` for the last manager or one whose managers are gone). */
export async function leaveSwarm(engine: NodeEngine, force = false): Promise<void> {
  if ((await swarmMembership(engine)).state === 'inactive') return;
  await engineCall(
    `swarm leave of ${engine.name}`,
    (abortSignal) => engine.docker.swarmLeave({ force, abortSignal }),
    60_000,
  );
}

/** Removes a node from the managers' list (`force` for one that is not down: a lost machine that may return). */
export async function removeSwarmNode(manager: NodeEngine, nodeId: string, force = false): Promise<void> {
  await engineCall(`remove node ${nodeId}`, (abortSignal) =>
    manager.docker.getNode(nodeId).remove({ force, abortSignal }),
  );
}

/**
 * Takes a node out of the swarm for good: drained (its tasks start elsewhere), demoted if a manager (a manager
 * cannot be removed, and the quorum is counted over the managers that remain), made to leave when its engine
 * still answers, then removed from the managers' list.
 */
export async function removeNodeFromSwarm(
  manager: NodeEngine,
  nodeId: string,
  engine: NodeEngine | undefined,
): Promise<void> {
  await setNodeAvailability(manager, nodeId, 'drain');
  const node = (await listSwarmNodes(manager)).find((item) => item.id === nodeId);
  if (node?.role === 'manager') {
    await setNodeRole(manager, nodeId, 'worker');
    await waitFor(
      `node ${nodeId} a worker`,
      async () => {
        const now = (await listSwarmNodes(manager)).find((item) => item.id === nodeId);
        return now?.role === 'worker' ? true : undefined;
      },
      30_000,
    );
  }
  if (engine) await leaveSwarm(engine);
  await waitFor(
    `node ${nodeId} down`,
    async () => {
      const now = (await listSwarmNodes(manager)).find((item) => item.id === nodeId);
      return now?.state !== 'ready' ? true : undefined;
    },
    engine ? 30_000 : 1,
  ).catch((error: unknown) => {
    // A node whose engine is gone may still read ready for a heartbeat; the forced removal below settles it.
    if (!(error instanceof SwarmCallError)) throw error;
  });
  await removeSwarmNode(manager, nodeId, true);
}
