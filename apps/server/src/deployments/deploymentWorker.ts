import { startJobWorkers } from '../jobs/jobCatalogue.js';
import type { Platform } from '../platform/platform.js';

/**
 * What a worker process runs: the job catalogue's handlers and the reaper that ends deployments whose
 * worker died. The server (main.ts) runs it in-process; a dedicated worker process can run it alone.
 */
export async function startDeploymentWorker(platform: Platform) {
  await startJobWorkers(platform.queue, platform.deployments.jobHandlers);
  await platform.deployments.startRecovery();
}
