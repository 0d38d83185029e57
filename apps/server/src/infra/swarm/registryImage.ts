import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type Dockerode from 'dockerode';
import tar from 'tar-fs';
import { followEngineStream } from './engineStream.js';
import { engineCall, type NodeEngine, SwarmCallError } from './swarmCall.js';

const run = promisify(execFile);

/** Debian's `docker-registry` package's binary. */
export const REGISTRY_BINARY = '/usr/bin/docker-registry';
export const REGISTRY_IMAGE = 'slipway/registry:2';

/** The shared libraries a dynamically linked binary loads, as `ldd` lists them (absolute paths only). */
async function librariesOf(binary: string): Promise<string[]> {
  const { stdout } = await run('ldd', [binary]);
  return [...stdout.matchAll(/(\/\S+)\s+\(0x/g)].map((match) => match[1]!);
}

/**
 * Builds the registry's image on an engine with nothing from any other registry: FROM scratch, Debian's
 * docker-registry binary and the C library it loads (the package's binary is not static). Its configuration,
 * certificate and password file come from Swarm configs and secrets when it runs. Returns the image id (a
 * service given an image id pulls nothing).
 */
export async function buildRegistryImage(engine: NodeEngine): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'slipway-registry-image-'));
  try {
    const root = path.join(dir, 'rootfs');
    for (const file of [REGISTRY_BINARY, ...(await librariesOf(REGISTRY_BINARY))]) {
      await mkdir(path.join(root, path.dirname(file)), { recursive: true });
      await copyFile(file, path.join(root, file));
    }
    await mkdir(path.join(root, 'var/lib/registry'), { recursive: true });
    await writeFile(
      path.join(dir, 'Dockerfile'),
      [
        'FROM scratch',
        'COPY rootfs/ /',
        'EXPOSE 5000',
        `ENTRYPOINT ["${REGISTRY_BINARY}", "serve", "/etc/docker/registry/config.yml"]`,
        '',
      ].join('\n'),
    );
    const what = `build the registry image on ${engine.name}`;
    const stream = await engineCall(what, (abortSignal) =>
      engine.docker.buildImage(tar.pack(dir), {
        t: REGISTRY_IMAGE,
        rm: true,
        abortSignal,
      } as Dockerode.ImageBuildOptions),
    );
    await followEngineStream(what, stream, 120_000);
    const image = (await engineCall('inspect the registry image', () =>
      engine.docker.getImage(REGISTRY_IMAGE).inspect(),
    )) as { Id?: string };
    if (!image.Id) throw new SwarmCallError(what, 'no image id');
    return image.Id;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
