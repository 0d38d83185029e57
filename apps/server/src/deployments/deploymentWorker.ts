import type { JobQueue } from '../infra/queue/jobQueue.js';
import { startJobWorkers } from '../jobs/jobCatalogue.js';
import type { DeploymentsModule } from './deploymentsModule.js';

/**
 * What a worker process runs: the job catalogue's handlers and the reaper that ends deployments whose
 * worker died. The server (main.ts) runs it in-process; a dedicated worker process can run it alone.
 */
export async function startDeploymentWorker(deps: {
  queue: JobQueue;
  deployments: Pick<DeploymentsModule, 'jobHandlers'> & {
    /** Starts the reaper (answers once its first run has ended) and the route restorer. */
    startRecovery(): Promise<unknown>;
  };
}) {
  await startJobWorkers(deps.queue, deps.deployments.jobHandlers);
  await deps.deployments.startRecovery();
}
