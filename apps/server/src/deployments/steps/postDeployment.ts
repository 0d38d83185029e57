import type { DeploymentMetadataOutput } from '@slipway/contract';
import { type RunState, requireTarget } from '../runState.js';
import { currentPlan } from '../servingProject.js';

/** The URL a deployment shows first: web, app or frontend when there is one. */
function primaryUrl(urls: Record<string, string>, preferred?: string): string | null {
  return (
    urls.web ??
    urls.app ??
    urls.frontend ??
    (preferred ? urls[preferred] : undefined) ??
    Object.values(urls)[0] ??
    null
  );
}

/**
 * Marks the workspace live, records the deployed version, and prunes images older than the kept versions. From
 * the moment the row holds `service_urls` the version serves: previews report themselves Live then
 * (previews/previewDeployer.ts), not after the plan is saved and the pruning ends.
 */
export async function postDeployment(state: RunState) {
  const { deps, workspace, deployment } = state;
  const primaryService =
    ['web', 'app', 'frontend'].find((name) => state.serviceUrls[name]) ?? state.ports[0]?.service;
  const firstImageService = Object.keys(state.imageNames)[0];
  const dockerImageName =
    (primaryService && state.imageNames[primaryService]) ??
    (firstImageService ? state.imageNames[firstImageService] : undefined) ??
    state.services.find((s) => s.image)?.image ??
    null;
  await deps.workspaces.update(workspace.id, {
    status: 'live',
    serviceUrls: state.serviceUrls,
    dockerImageName,
    vmId: state.vm?.id ?? workspace.vmId,
    branch: deployment.branch,
  });
  const url = primaryUrl(state.serviceUrls, primaryService);
  const output: DeploymentMetadataOutput = {
    service_url: url,
    url,
    urls: state.serviceUrls,
    output: `Deployed ${deployment.owner}/${deployment.repo}@${state.commitSha?.slice(0, 7) ?? '?'} with ${state.services.length} service(s)`,
  };
  await deps.repository.update(deployment.id, {
    imageIds: state.imageIds,
    metadata: {
      ...deployment.metadata,
      ...output,
      service_urls: state.serviceUrls,
      host_ports: state.hostPorts,
      service_states: state.serviceStates.map((s) => ({ ...s, url: state.serviceUrls[s.service] ?? null })),
      docker_image_name: dockerImageName,
    },
  });
  const kept = (await deps.repository.completedForWorkspace(workspace.id))
    .slice(0, Math.max(0, deps.keepVersions - 1))
    .map((row) => row.id);
  // What it takes to start this version again (after a failed redeploy) is kept as long as its images.
  await deps.plans.save(workspace.id, currentPlan(state));
  const versions = [deployment.id, ...kept];
  const removed = await deps.plans
    .pruneImagesTo(requireTarget(state).docker, workspace.id, versions)
    .catch(() => 0);
  await deps.plans.prune(workspace.id, versions);
  if (removed > 0) state.log.write(`Removed ${removed} image(s) of older versions`);
  state.log.write('Deployment is live');
}
