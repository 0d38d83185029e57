import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';

/**
 * The classic builder (what Compose v1 uses) keeps each finished build stage of a multi-stage Dockerfile as an
 * untagged image, and `--label` reaches only the final stage's image: the earlier stages carried no Slipway
 * label, so no cleanup ever found them. BuildKit (Compose v2) keeps no such images.
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
 * Gives each leftover stage image of this build a labelled child (a build of `FROM <stage>` with the labels),
 * so the stage stays as build cache while the workspace lives and goes with the labelled image when the
 * workspace's images are removed or pruned (removing an image also removes its untagged parents).
 */
export async function labelLeftoverStages(
  docker: Docker,
  buildOutput: readonly string[],
  labels: Record<string, string>,
): Promise<number> {
  const made = imageIdsInBuildOutput(buildOutput);
  if (made.size === 0) return 0;
  const dangling = await docker.listImages({ filters: { dangling: ['true'] } });
  const leftovers = dangling.filter((image) => {
    const id = image.Id.replace(/^sha256:/, '');
    return [...made].some((short) => id.startsWith(short));
  });
  for (const image of leftovers) await buildLabelledChild(docker, image.Id, labels);
  return leftovers.length;
}

async function buildLabelledChild(docker: Docker, imageId: string, labels: Record<string, string>) {
  const context = await mkdtemp(path.join(tmpdir(), 'slipway-stage-'));
  try {
    await writeFile(path.join(context, 'Dockerfile'), `FROM ${imageId}\n`);
    const stream = await docker.buildImage({ context, src: ['Dockerfile'] }, { labels });
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[] = []) => {
        const failed = output.find((event) => event.error);
        if (error || failed) reject(error ?? new Error(failed?.error));
        else resolve();
      });
    });
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}

/**
 * The classic builder runs each step in a container and, unless asked to (`--force-rm`, which `up --build`
 * cannot pass), keeps the container of a step that failed. The build's output names each one
 * (` ---> Running in 1a2b3c4d5e6f`): those still there after a failed build are removed.
 */
export async function removeFailedStepContainers(docker: Docker, buildOutput: readonly string[]) {
  for (const line of buildOutput) {
    const id = line.match(/^\s*--->\s+Running in\s+([0-9a-f]{12,64})\s*$/)?.[1];
    if (!id) continue;
    await docker
      .getContainer(id)
      .remove({ force: true })
      .catch(() => undefined);
  }
}
