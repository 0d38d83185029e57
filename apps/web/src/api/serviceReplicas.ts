import type { StartDeploymentResponse } from '@slipway/contract';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';

/**
 * PUT /api/workspace-service-replicas/{name}/{service}: the service runs `replicas` containers from now on,
 * applied by a redeploy started under `sessionId`; a count that cannot run is refused with the reason.
 */
export async function setServiceReplicas(
  workspace: string,
  service: string,
  replicas: number,
  sessionId: string,
): Promise<StartDeploymentResponse> {
  return failingWith('Could not change the replicas', () =>
    callRoute('setServiceReplicas', {
      params: { name: workspace, service },
      body: { replicas, sessionId },
      config: { sameAnswerIfRepeated: true },
    }),
  );
}
