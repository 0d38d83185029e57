import path from 'node:path';
import { type ServiceRole, serviceRoles, withReplicas } from '../../health/serviceRoles.js';
import { placeBindMounts } from '../../infra/compose/bindMounts.js';
import { dnsLabel } from '../../infra/compose/composeProject.js';
import { builtImageName } from '../../infra/docker/conventions.js';
import type { EngineRun } from '../../rollout/engine.js';
import { envDigest, type RevisionPlan, type VersionPlan } from '../../rollout/revisionPlans.js';
import type { WorkspaceRow } from '../../workspaces/workspacesRepository.js';
import type { DeploymentDeps } from '../deploymentDeps.js';
import type { Source } from './checkout.js';
import { guardDisk } from './diskGuard.js';
import { containerPortsToPublish } from './exposedPorts.js';
import { assertKeptImages, buildImages, imageIdsOf, keepImagesThatDidNotChange } from './images.js';
import type { Machine } from './machine.js';
import type { Project } from './project.js';

/** A planned version, and the ids of the images it runs (recorded once it is live). */
export interface Planned {
  plan: VersionPlan;
  imageIds: Record<string, string>;
}

/** What the plan is made from: the run's own parts and the stages before it. */
export interface PlanInputs {
  workspace: WorkspaceRow;
  deploymentId: string;
  env: { key: string; value: string }[];
  run: EngineRun;
  machine: Machine;
  source: Source;
  project: Project;
  /** Containers per active service, as policy-check allowed them. */
  replicas: Record<string, number>;
  /** The plan of the version serving now, if any. */
  serving: RevisionPlan | undefined;
}

/**
 * The version to roll out: its project (bind mounts moved into the workspace's storage), its service roles, its
 * images — built now (output streamed to the build log), or a rollback's kept ones — and the ports it publishes.
 */
export async function planVersion(
  deps: Pick<DeploymentDeps, 'workRoot' | 'minFreeDiskBytes' | 'repository' | 'keepVersions' | 'plans'>,
  inputs: PlanInputs,
): Promise<Planned> {
  const { workspace, deploymentId, source, project, machine, run } = inputs;
  const { docker } = machine.target;
  let normalized = project.normalized;
  let imageNames: Record<string, string> = {};
  let roles: ServiceRole[];
  if (source.kind === 'kept') {
    // A rollback runs a kept version as it was: its project, roles and images.
    await assertKeptImages(docker, source.plan);
    imageNames = { ...source.plan.imageNames };
    roles = withReplicas(source.plan.roles, inputs.replicas);
    run.log(
      `Starting the kept images of deployment ${source.plan.deploymentId.slice(0, 8)}: nothing to build`,
    );
  } else {
    for (const service of project.services) {
      if (service.hasBuild) {
        imageNames[service.name] = builtImageName(workspace.id, dnsLabel(service.name), deploymentId);
      }
    }
    // Bind mounts move out of the checkout (which goes with the run) into the workspace's storage in DATA_DIR,
    // the parent of the runs' work root.
    normalized = await placeBindMounts(normalized, {
      repoDir: source.repoDir,
      dataDir: path.dirname(deps.workRoot),
      workspaceId: workspace.id,
      deploymentId,
    });
    roles = serviceRoles(normalized, project.services, {
      dockerfileOnly: project.dockerfileOnly,
      replicas: inputs.replicas,
    });
    await guardDisk(deps, machine.target, machine.vm, workspace.id, run.log);
  }
  const plan: VersionPlan = {
    deploymentId,
    commitSha: source.commitSha,
    normalized,
    services: project.services,
    imageNames,
    roles,
    envDigest: envDigest(workspace.id, inputs.env),
  };
  if (source.kind === 'checkout' && project.services.some((s) => s.hasBuild)) {
    await buildImages(docker, machine.engine, { plan: { ...plan, hostPorts: {} }, env: inputs.env }, run, {
      workspaceId: workspace.id,
      deploymentId,
    });
    plan.imageNames = await keepImagesThatDidNotChange(docker, imageNames, inputs.serving);
  }
  if (project.dockerfileOnly) {
    // A Dockerfile-only repository's single service is public by definition and publishes what its image
    // EXPOSEs, known only now that it is built. `expose:`-only services stay on the workspace network.
    const exposed = await containerPortsToPublish(docker, project.services, (service) =>
      service.hasBuild ? plan.imageNames[service.name] : service.image,
    );
    plan.roles = plan.roles.map((role) => ({
      ...role,
      publishedPorts: exposed[role.name] ?? role.publishedPorts,
    }));
  }
  return { plan, imageIds: await imageIdsOf(docker, plan.imageNames) };
}
