import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import { holdLease, type Lease } from '../scheduling/leaseLock.js';
import { type DockerFor, engineKey } from '../workspaces/workspaceDocker.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createLogCollector, type LogCollector } from './logCollector.js';
import type { LogRetention } from './logRetention.js';
import type { LogStore } from './logStore.js';
import type { SecretMasks } from './secretMasking.js';

/**
 * Runs one log collector per Docker Engine (VM) that hosts a workspace, across all server replicas:
 * each engine's collector runs only in the replica holding that engine's lease. Also prunes old lines. The
 * platform runs `refreshEngines` (every replica looks for engines) and `prune` on the schedule catalogue's timers.
 */
export function createLogPipeline(deps: {
  dockerFor: DockerFor;
  workspaces: WorkspacesRepository;
  logStore: LogStore;
  pubsub: PubSub;
  masks: SecretMasks;
  kv: KeyValueStore;
  logger: Logger;
  retention: LogRetention;
  leaseTtlMs?: number;
}) {
  const engines = new Map<string, { lease: Lease; collector: LogCollector }>();

  function watchEngine(docker: Docker) {
    const key = engineKey(docker);
    if (engines.has(key)) return;
    const logger = deps.logger.child({ engine: key });
    const collector = createLogCollector({ ...deps, docker, logger });
    const lease = holdLease({
      kv: deps.kv,
      name: `log-collector:${key}`,
      ...(deps.leaseTtlMs ? { ttlMs: deps.leaseTtlMs } : {}),
      logger,
      onAcquired: () => collector.start(),
      onLost: () => collector.stop(),
    });
    engines.set(key, { lease, collector });
  }

  async function refreshEngines() {
    for (const vm of await deps.workspaces.listEngineVms()) watchEngine(deps.dockerFor(vm));
  }

  async function prune() {
    const removed = await deps.logStore.prune(deps.retention);
    if (removed === 0) return;
    deps.logger.info({ removed }, 'pruned old log lines');
    await deps.logStore.reclaim(removed > (await deps.logStore.countLines()));
  }

  return {
    /** Starts watching `docker` at once (a fresh deployment need not wait for the next refresh). */
    watch: watchEngine,
    refreshEngines,
    prune,
    collectors: () => [...engines.values()].map((engine) => engine.collector),
    /** Stops every engine's collector (call once the timers that refresh the engines have stopped). */
    async stop() {
      await Promise.all([...engines.values()].map((engine) => engine.lease.stop()));
      engines.clear();
    },
  };
}

export type LogPipeline = ReturnType<typeof createLogPipeline>;
