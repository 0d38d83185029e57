import type Docker from 'dockerode';
import { packBuildContext } from './buildContext.js';
import { followBuild } from './buildOutput.js';
import { isObj, type Obj, toMap } from './composeMerge.js';

/**
 * One service's image built through the engine's API with the classic builder, from the `build` section of a
 * project file Compose v1 reads, with the parameters Compose v1 (docker-py) passes for it: `up --build` runs
 * its builds one after another and `build --parallel` costs another start of the Python CLI (~0.3 s), where
 * builds through the API run side by side from the server itself.
 */
export interface ImageBuildRequest {
  /** The service's `build` section (absolute context, as composeReader.ts leaves it). */
  build: Obj;
  /** The image's name. */
  tag: string;
}

const BYTE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** `shm_size` as Compose writes it (`64m`, `1gb`, a number of bytes) in bytes. */
export function bytesOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)b?\s*$/i.exec(String(value ?? ''));
  if (!match) return undefined;
  return Math.floor(Number(match[1]) * BYTE_UNITS[match[2]!.toLowerCase()]!);
}

/** Values of a map or `KEY=value` list as strings; a key without a value is left to the Dockerfile's default. */
function stringMap(value: unknown): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(toMap(value))) {
    if (item !== null && item !== undefined) out[key] = String(item);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The engine's build parameters for a `build` section (see docker-py's `APIClient.build`). */
export function buildParameters(build: Obj, tag: string, dockerfile: string) {
  const args = stringMap(build.args);
  const labels = stringMap(build.labels);
  const cacheFrom = Array.isArray(build.cache_from) ? build.cache_from.map(String) : [];
  const extraHosts = isObj(build.extra_hosts)
    ? Object.entries(build.extra_hosts).map(([host, address]) => `${host}:${String(address)}`)
    : Array.isArray(build.extra_hosts)
      ? build.extra_hosts.map(String)
      : [];
  const shmSize = bytesOf(build.shm_size);
  return {
    t: tag,
    dockerfile,
    rm: true,
    // The container of a failed step goes with the build.
    forcerm: true,
    ...(args ? { buildargs: JSON.stringify(args) } : {}),
    ...(labels ? { labels: JSON.stringify(labels) } : {}),
    ...(cacheFrom.length > 0 ? { cachefrom: cacheFrom } : {}),
    ...(typeof build.target === 'string' ? { target: build.target } : {}),
    ...(typeof build.network === 'string' ? { networkmode: build.network } : {}),
    ...(shmSize !== undefined ? { shmsize: shmSize } : {}),
    ...(extraHosts.length > 0 ? { extrahosts: extraHosts } : {}),
    ...(typeof build.isolation === 'string' ? { isolation: build.isolation } : {}),
  };
}

/** Builds one image; `signal` ends it (the engine stops a build whose client went away). */
export async function buildImage(
  docker: Docker,
  request: ImageBuildRequest,
  options: { onLine: (line: string) => void; signal: AbortSignal },
): Promise<void> {
  const context = String(request.build.context);
  const dockerfile = typeof request.build.dockerfile === 'string' ? request.build.dockerfile : 'Dockerfile';
  const packed = packBuildContext(context, dockerfile);
  const output = await docker.buildImage(packed.stream, {
    ...buildParameters(request.build, request.tag, packed.dockerfile),
    abortSignal: options.signal,
  } as Docker.ImageBuildOptions);
  await followBuild(output as AsyncIterable<Buffer>, options.onLine);
}
