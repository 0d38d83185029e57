import type { DeploymentMetadataOutput } from '@slipway/contract';
import type { Rollout } from '../../rollout/rollout.js';
import type { WorkspaceRow } from '../../workspaces/workspacesRepository.js';
import type { DeploymentDeps } from '../deploymentDeps.js';
import type { DeploymentRow } from '../deploymentRepository.js';
import type { Machine } from './machine.js';
import type { Planned } from './plan.js';

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
export async function postDeployment(
  deps: Pick<DeploymentDeps, 'workspaces' | 'repository' | 'plans' | 'keepVersions'>,
  {
    workspace,
    deployment,
    log,
  }: { workspace: WorkspaceRow; deployment: DeploymentRow; log: (line: string) => void },
  machine: Machine,
  planned: Planned,
  rollout: Rollout,
) {
  const { plan, serviceUrls } = rollout;
  const primaryService =
    ['web', 'app', 'frontend'].find((name) => serviceUrls[name]) ?? rollout.ports[0]?.service;
  const firstImageService = Object.keys(plan.imageNames)[0];
  const dockerImageName =
    (primaryService && plan.imageNames[primaryService]) ??
    (firstImageService ? plan.imageNames[firstImageService] : undefined) ??
    plan.services.find((s) => s.image)?.image ??
    null;
  await deps.workspaces.update(workspace.id, {
    status: 'live',
    serviceUrls,
    dockerImageName,
    vmId: machine.vm.id,
    branch: deployment.branch,
  });
  const url = primaryUrl(serviceUrls, primaryService);
  const output: DeploymentMetadataOutput = {
    service_url: url,
    url,
    urls: serviceUrls,
    output: `Deployed ${deployment.owner}/${deployment.repo}@${plan.commitSha?.slice(0, 7) ?? '?'} with ${plan.services.length} service(s)`,
  };
  await deps.repository.update(deployment.id, {
    imageIds: planned.imageIds,
    metadata: {
      ...deployment.metadata,
      ...output,
      service_urls: serviceUrls,
      host_ports: plan.hostPorts,
      service_states: rollout.serviceStates.map((s) => ({ ...s, url: serviceUrls[s.service] ?? null })),
      docker_image_name: dockerImageName,
    },
  });
  const kept = (await deps.repository.completedForWorkspace(workspace.id))
    .slice(0, Math.max(0, deps.keepVersions - 1))
    .map((row) => row.id);
  // What it takes to start this version again (after a failed redeploy) is kept as long as its images.
  await deps.plans.save(workspace.id, plan);
  const versions = [deployment.id, ...kept];
  const removed = await deps.plans
    .pruneImagesTo(machine.target.docker, workspace.id, versions)
    .catch(() => 0);
  await deps.plans.prune(workspace.id, versions);
  if (removed > 0) log(`Removed ${removed} image(s) of older versions`);
  log('Deployment is live');
}
