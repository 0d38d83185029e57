import type Docker from 'dockerode';
import { nameLeftoverStages } from '../../infra/docker/buildStages.js';
import type { EngineRun, EngineVersion, RolloutEngine } from '../../rollout/engine.js';
import type { RevisionPlan } from '../../rollout/revisionPlans.js';
import { StepFailure } from '../../rollout/stepFailure.js';

const exists = (docker: Docker, image: string) =>
  docker
    .getImage(image)
    .inspect()
    .then(() => true)
    .catch(() => false);

/** A rollback runs a kept version's images, which must still be there. */
export async function assertKeptImages(docker: Docker, plan: RevisionPlan) {
  for (const image of Object.values(plan.imageNames)) {
    if (!(await exists(docker, image))) {
      throw new StepFailure(
        `The images of that version were removed (${image}); it can no longer be rolled back to. Deploy its commit again instead.`,
      );
    }
  }
}

/**
 * Builds the version's images on the engine, streaming the output to the build log, then names the build stages
 * it left (buildStages.ts), so the workspace's clean-up finds them; a failed build's too (the stages it finished).
 * The container of a step that failed or was stopped goes with the build (`forcerm`; imageBuild.docker.test.ts).
 */
export async function buildImages(
  docker: Docker,
  engine: RolloutEngine,
  version: EngineVersion,
  run: EngineRun,
  owner: { workspaceId: string; deploymentId: string },
) {
  run.log('Building images...');
  const output: string[] = [];
  const nameStages = () => nameLeftoverStages(docker, output, owner);
  try {
    await engine.build(version, run, (line) => output.push(line));
  } catch (error) {
    await nameStages().catch(() => undefined);
    throw error;
  }
  await nameStages();
}

/**
 * A service whose new build is the very image the serving version runs keeps that image's name, so the engine
 * sees the same service and leaves its container running, as it does for a published image that did not
 * change (a changed variable or setting still recreates it). The new name is taken off the image again.
 */
export async function keepImagesThatDidNotChange(
  docker: Docker,
  imageNames: Record<string, string>,
  serving: RevisionPlan | undefined,
): Promise<Record<string, string>> {
  if (!serving) return imageNames;
  const kept = { ...imageNames };
  const idOf = (name: string) =>
    docker
      .getImage(name)
      .inspect()
      .then((image) => image.Id)
      .catch(() => undefined);
  for (const [service, name] of Object.entries(imageNames)) {
    const running = serving.imageNames[service];
    if (!running || running === name) continue;
    const [built, before] = await Promise.all([idOf(name), idOf(running)]);
    if (built === undefined || built !== before) continue;
    kept[service] = running;
    await docker
      .getImage(name)
      .remove({ noprune: true })
      .catch(() => undefined);
  }
  return kept;
}

/** The image id of each service's image, as far as the engine can tell. */
export async function imageIdsOf(docker: Docker, imageNames: Record<string, string>) {
  const ids: Record<string, string> = {};
  for (const [service, image] of Object.entries(imageNames)) {
    try {
      ids[service] = (await docker.getImage(image).inspect()).Id;
    } catch {
      // A service that failed to build never reaches here; an image we cannot inspect is simply not recorded.
    }
  }
  return ids;
}
