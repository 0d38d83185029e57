import { followEngineStream } from './engineStream.js';
import { engineCall, type NodeEngine, SwarmCallError } from './swarmCall.js';
import type { RegistryAuth } from './swarmServices.js';

/** Where a cluster's registry answers: `{address}:{port}` of the node that runs it. */
export interface ClusterRegistry {
  host: string;
  auth: RegistryAuth;
}

/** A repository name in the cluster's registry: lowercase, Docker's characters only. */
export const REPOSITORY_PATTERN = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;

/**
 * Pushes an image the engine holds (by name or id) to the cluster's registry as `{repository}:{tag}` and returns
 * the reference services are deployed by: `{registry}/{repository}@sha256:…`, which no node resolves anywhere else.
 */
export async function pushImage(
  engine: NodeEngine,
  image: string,
  target: { repository: string; tag: string },
  registry: ClusterRegistry,
  ms = 300_000,
): Promise<string> {
  if (
    !REPOSITORY_PATTERN.test(target.repository) ||
    !/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(target.tag)
  ) {
    throw new SwarmCallError('push an image', `'${target.repository}:${target.tag}' is not a valid name`);
  }
  const repo = `${registry.host}/${target.repository}`;
  await engineCall(`tag ${image} as ${repo}:${target.tag}`, (abortSignal) =>
    engine.docker.getImage(image).tag({ repo, tag: target.tag, abortSignal }),
  );
  const what = `push ${repo}:${target.tag} from ${engine.name}`;
  const stream = await engineCall(what, (abortSignal) =>
    engine.docker
      .getImage(`${repo}:${target.tag}`)
      .push({ tag: target.tag, authconfig: registry.auth, abortSignal }),
  );
  const aux = await followEngineStream(what, stream, ms);
  const digest = aux.find((entry) => entry.Digest)?.Digest;
  if (!digest) throw new SwarmCallError(what, 'the engine reported no digest');
  return `${repo}@${digest}`;
}

/**
 * Pulls a digest reference onto a node ahead of need: a node that already holds every image keeps starting
 * replicas when the registry's node is the one lost.
 */
export async function pullImage(
  engine: NodeEngine,
  reference: string,
  registry: ClusterRegistry,
  ms = 300_000,
): Promise<void> {
  if (!reference.startsWith(`${registry.host}/`) || !reference.includes('@sha256:')) {
    throw new SwarmCallError('pull an image', `${reference} is not a digest in the cluster's registry`);
  }
  const what = `pull ${reference} on ${engine.name}`;
  const stream = (await engineCall(what, (abortSignal) =>
    engine.docker.pull(reference, { authconfig: registry.auth, abortSignal }),
  )) as NodeJS.ReadableStream;
  await followEngineStream(what, stream, ms);
}
