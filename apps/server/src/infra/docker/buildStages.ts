import type Docker from 'dockerode';
import { stageImagePrefix, stageImageRepository } from './conventions.js';

/**
 * The classic builder (what Compose v1 uses) keeps each finished build stage of a multi-stage Dockerfile as an
 * untagged image, and only the final stage's image gets the name Compose asked for: the earlier stages had
 * no name or label of ours, so no cleanup ever found them. BuildKit (Compose v2) keeps no such images.
 *
 * The build's own output names every image it made (` ---> 1a2b3c4d5e6f`), so the dangling images among them
 * are exactly this build's earlier stages — never another workspace's, whose output we do not read.
 */
export function imageIdsInBuildOutput(lines: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const line of lines) {
    const match = line.match(/^\s*--->\s+([0-9a-f]{12,64})\s*$/);
    if (match?.[1]) ids.add(match[1]);
  }
  return ids;
}

/**
 * Names each build stage image this build left or found in the cache for the workspace and the deployment
 * (`slipway-{workspace}-stage.{id}:{deployment}`, conventions.ts), so the stage stays as build cache while its
 * version is kept and goes with the workspace's other images when they are pruned or removed. A name is a
 * tag: instant, where a labelled child image took a build of its own (~0.3 s a stage).
 */
export async function nameLeftoverStages(
  docker: Docker,
  buildOutput: readonly string[],
  owner: { workspaceId: string; deploymentId: string },
): Promise<number> {
  const made = imageIdsInBuildOutput(buildOutput);
  if (made.size === 0) return 0;
  // Dangling, or named for an earlier deployment of the workspace (a stage found in the cache is kept as
  // long as the newest version that used it).
  const [dangling, named] = await Promise.all([
    docker.listImages({ filters: { dangling: ['true'] } }),
    docker.listImages({ filters: { reference: [`${stageImagePrefix(owner.workspaceId)}*`] } }),
  ]);
  const leftovers = [...dangling, ...named].filter((image) => {
    const id = image.Id.replace(/^sha256:/, '');
    return [...made].some((short) => id.startsWith(short));
  });
  for (const image of leftovers) {
    await docker
      .getImage(image.Id)
      .tag({ repo: stageImageRepository(owner.workspaceId, image.Id), tag: owner.deploymentId });
  }
  return leftovers.length;
}
