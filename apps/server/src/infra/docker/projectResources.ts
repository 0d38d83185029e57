import type Docker from 'dockerode';
import { builderOf, builtImagePrefix, composeProjectName, LABELS } from './conventions.js';
import { isEngineDeadlineError } from './engineDeadlines.js';

const projectFilter = (workspaceId: string) => ({
  label: [`${LABELS.composeProject}=${composeProjectName(workspaceId)}`],
});

/**
 * The workspace's images: its builds and build stages, found by their names (conventions.ts), and the
 * unnamed build stages older versions of Slipway labelled instead.
 */
export async function listWorkspaceImages(docker: Docker, workspaceId: string): Promise<Docker.ImageInfo[]> {
  const [named, labelled] = await Promise.all([
    docker.listImages({ filters: { reference: [`${builtImagePrefix(workspaceId)}*`] } }),
    docker.listImages({ filters: { label: [`${LABELS.workspaceId}=${workspaceId}`] } }),
  ]);
  const ids = new Set(named.map((image) => image.Id));
  return [...named, ...labelled.filter((image) => !ids.has(image.Id))];
}

/** Every container of one Compose project, running or not. */
export function listContainersOfProject(docker: Docker, project: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${LABELS.composeProject}=${project}`] } });
}

/** Every container of the workspace's Compose project, running or not. */
export function listProjectContainers(docker: Docker, workspaceId: string): Promise<Docker.ContainerInfo[]> {
  return listContainersOfProject(docker, composeProjectName(workspaceId));
}

/** The candidate containers a redeploy started beside the workspace's own, running or not. */
export function listCandidateContainers(
  docker: Docker,
  workspaceId: string,
): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${LABELS.candidateOf}=${workspaceId}`] } });
}

/** Removes the candidate containers a redeploy started beside the workspace's own; how many there were. */
export async function removeCandidateContainers(docker: Docker, workspaceId: string): Promise<number> {
  const candidates = await listCandidateContainers(docker, workspaceId);
  for (const container of candidates) {
    // Gone already (removed by a concurrent clean-up) is as good as removed.
    await docker
      .getContainer(container.Id)
      .remove({ force: true, v: true })
      .catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 404) throw error;
      });
  }
  return candidates.length;
}

/** Docker's log stream without a TTY is multiplexed: 8-byte frame headers before each chunk. */
export function demuxLogs(buffer: Buffer): string {
  const looksMultiplexed =
    buffer.length >= 8 && buffer[0]! <= 2 && buffer[1] === 0 && buffer[2] === 0 && buffer[3] === 0;
  if (!looksMultiplexed) return buffer.toString('utf8');
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= buffer.length) {
    const size = buffer.readUInt32BE(offset + 4);
    parts.push(buffer.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The last `lines` lines a container printed (stdout and stderr). */
export async function tailContainerLogs(docker: Docker, containerId: string, lines = 50): Promise<string> {
  try {
    const output = (await docker
      .getContainer(containerId)
      .logs({ stdout: true, stderr: true, tail: lines, follow: false })) as unknown as Buffer;
    return demuxLogs(Buffer.isBuffer(output) ? output : Buffer.from(String(output)));
  } catch {
    return '';
  }
}

/**
 * Removes what a workspace left on an engine: its Compose project's containers, networks and (when asked)
 * volumes, found by the project label and the project's name prefix — no compose file needed, so it works after
 * a crash too — and
 * Slipway's own containers for it outside the project (the `system` metrics container). When the engine did not
 * answer a removal in time (engineDeadlines.ts), the others are still tried, then it throws with those sentences:
 * the caller tries again later.
 */
export async function removeProjectResources(
  docker: Docker,
  workspaceId: string,
  options: { volumes: boolean; images?: boolean },
): Promise<void> {
  // Each removal is best effort, so that one resource that will not go does not keep the others; a container
  // or network already gone (removed by Compose, or by a concurrent clean-up) fails here too, and one still in
  // use by a container that would not go is tried again with it. Only the engine's silence is reported.
  const unanswered: string[] = [];
  const noteUnanswered = (error: unknown) => {
    if (isEngineDeadlineError(error)) unanswered.push(error.message);
  };
  const filters = projectFilter(workspaceId);
  const ours = [
    ...(await docker.listContainers({
      all: true,
      filters: { label: [`${LABELS.workspaceId}=${workspaceId}`] },
    })),
    ...(await listCandidateContainers(docker, workspaceId)),
  ];
  for (const container of [...(await docker.listContainers({ all: true, filters })), ...ours]) {
    await docker.getContainer(container.Id).remove({ force: true, v: options.volumes }).catch(noteUnanswered);
  }
  const project = composeProjectName(workspaceId);
  // By label, and by the names only the workspace's project can have (`{project}_…`, scopedResources.ts): the
  // engine's name filter matches anywhere in a name, so the prefix is checked here.
  const named = { name: [`${project}_`] };
  const ownName = (name: string) => name.startsWith(`${project}_`);
  const networks = [
    ...(await docker.listNetworks({ filters })),
    ...(await docker.listNetworks({ filters: named })).filter((network) => ownName(network.Name)),
  ];
  for (const id of new Set(networks.map((network) => network.Id))) {
    await docker.getNetwork(id).remove().catch(noteUnanswered);
  }
  if (options.volumes) {
    const volumes = [
      ...((await docker.listVolumes({ filters })).Volumes ?? []),
      ...((await docker.listVolumes({ filters: named })).Volumes ?? []).filter((volume) =>
        ownName(volume.Name),
      ),
    ];
    for (const name of new Set(volumes.map((volume) => volume.Name))) {
      await docker.getVolume(name).remove().catch(noteUnanswered);
    }
  }
  if (options.images) {
    for (const image of await listWorkspaceImages(docker, workspaceId)) {
      for (const { name } of referencesOf(image, workspaceId)) {
        await docker.getImage(name).remove({ force: true }).catch(noteUnanswered);
      }
    }
  }
  if (unanswered.length > 0) {
    throw new Error(`Not everything of the workspace was removed: ${unanswered.join('; ')}`);
  }
}

/**
 * How the workspace refers to one of its images, each with the deployment it belongs to: by its own names (the
 * same build in two workspaces is one image with a name from each; removing a name removes the image only with
 * its last one, so another workspace's is never touched), or, for an unnamed build stage an older version
 * labelled, by its ID and label.
 */
function referencesOf(image: Docker.ImageInfo, workspaceId: string) {
  const names = (image.RepoTags ?? []).filter((tag) => tag.startsWith(builtImagePrefix(workspaceId)));
  return names.length > 0
    ? names.map((name) => ({ name, deploymentId: builderOf(name) }))
    : [{ name: image.Id, deploymentId: image.Labels?.[LABELS.deploymentId] }];
}

/**
 * Keeps the images of the newest `keep` deployments of a workspace (and any image in use) and removes the rest,
 * so old versions do not fill the disk. A built image is named for
 * the deployment that built it (`slipway-…:{deploymentId}`); a kept deployment may run an image an older one
 * built (its build was that image again, deployApplication.ts), so `keepNames` lists the names kept versions
 * run. Each name not kept is removed, and the image goes with its last one.
 * Build stages are named the same way (buildStages.ts); an unnamed one that older versions labelled says its
 * deployment in its label, and one that says none is removed.
 * Returns how many names and unnamed images were removed.
 */
export async function pruneWorkspaceImages(
  docker: Docker,
  workspaceId: string,
  keepDeploymentIds: string[],
  keepNames: readonly string[] = [],
): Promise<number> {
  const images = await listWorkspaceImages(docker, workspaceId);
  let removed = 0;
  for (const image of images) {
    for (const { name, deploymentId } of referencesOf(image, workspaceId)) {
      if (keepNames.includes(name) || (deploymentId && keepDeploymentIds.includes(deploymentId))) continue;
      try {
        await docker.getImage(name).remove({ force: false });
        removed += 1;
      } catch {
        // In use by a container, or shared with a kept image: it stays.
      }
    }
  }
  // No prune of the workspace's dangling images here: labelled build stages of older versions are dangling
  // images, and those of kept versions are the next build's cache. The loop above removed the others.
  return removed;
}
