import type { Logger } from 'pino';
import type { DeploymentsModule } from '../deployments/deploymentsModule.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { DurableRuns } from '../jobs/durableRuns.js';
import { scheduledTask, scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';

/**
 * What a worker process runs: the durable runs' job workers (deployments, backups, restores), the reaper that
 * takes over the runs of dead workers (every process, every two heartbeats) and the restorer of the routes the
 * ingress lost (one replica, by lease). The server (main.ts) runs it in-process; a worker process can run it alone.
 */
export function createWorkers(deps: {
  runs: DurableRuns;
  deployments: Pick<DeploymentsModule, 'routeRestorer'>;
  heartbeatMs: number;
  /** No other process can run these runs (the embedded database is this process's alone). */
  onlyProcess: boolean;
  kv: KeyValueStore;
  logger: Logger;
}) {
  const reaper = scheduledTask('run-reaper', {
    logger: deps.logger,
    intervalMs: 2 * deps.heartbeatMs,
    task: () => deps.runs.reap(),
  });
  const routes = scheduledWhileLeaseHeld('ingress-routes', {
    kv: deps.kv,
    logger: deps.logger,
    task: deps.deployments.routeRestorer.restoreMissing,
  });
  return {
    /**
     * Starts the workers. Alone on its data, a process takes over at once every run a crash left at work (no
     * other process can be running it); otherwise the reaper takes those whose heartbeat stopped.
     */
    async start() {
      if (deps.onlyProcess) await deps.runs.reap({ everyTakenRun: true });
      await deps.runs.startWorkers();
      await reaper.start();
      routes.start();
    },
    async stop() {
      await reaper.stop();
      await routes.stop();
      await deps.runs.stop();
    },
  };
}

export type Workers = ReturnType<typeof createWorkers>;
