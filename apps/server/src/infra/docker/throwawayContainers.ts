import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { ExecFailure, ExecOutputSplitter, type RunningExec } from './containerExec.js';

/**
 * On every container and volume the engine makes for itself, with the making server's owner id as its value, so
 * that a crash's leftovers can be found by that server and never mistaken for another's work in progress (several
 * servers, or test runs, may share one Docker Engine).
 */
export const THROWAWAY_LABEL = 'dev.slipway.backup-throwaway';

/** The Docker Engine, and whose throwaways these are. */
export interface ThrowawayOwner {
  docker: Docker;
  owner: string;
}
/** On a throwaway server: the container of the service whose backup it checks. */
export const THROWAWAY_OF_LABEL = 'dev.slipway.backup-of';
/**
 * On a volume a restore made (its staged data, or the live data it holds while the swap may be undone): the
 * restore's id. Such a volume outlives a crash — the restore's own recovery removes it — and nothing else does.
 */
export const RESTORE_LABEL = 'dev.slipway.restore';

/** The small image whose `tar`, `find` and `sh` read and write volumes (busybox; built offline in tests). */
export const DEFAULT_HELPER_IMAGE = 'busybox:1.36';

export interface VolumeBinding {
  volume: string;
  path: string;
  readOnly?: boolean;
}

/** A directory of the engine's host (the engine's own volumes directory, for a restore's swap by rename). */
export interface HostBinding {
  hostPath: string;
  path: string;
}

const mounts = (bindings: VolumeBinding[], hosts: HostBinding[] = []) => [
  ...bindings.map((binding) => ({
    Type: 'volume' as const,
    Source: binding.volume,
    Target: binding.path,
    ReadOnly: binding.readOnly ?? false,
  })),
  ...hosts.map((host) => ({ Type: 'bind' as const, Source: host.hostPath, Target: host.path })),
];

async function removeContainer(docker: Docker, id: string): Promise<void> {
  await docker
    .getContainer(id)
    .remove({ force: true, v: true })
    .catch((error: { statusCode?: number }) => {
      if (error.statusCode !== 404) throw error;
    });
}

/**
 * Runs one command in a new container of `image` (no network, removed when it ends), with volumes mounted:
 * how the engine reads and writes a volume's files whatever engine it talks to (a VM's socket is tunnelled,
 * so the volume's directory on the host is not this process's to read).
 */
export async function runInThrowaway(
  { docker, owner }: ThrowawayOwner,
  options: {
    image: string;
    cmd: string[];
    volumes: VolumeBinding[];
    hosts?: HostBinding[];
    stdin?: Readable;
    user?: string;
  },
): Promise<RunningExec> {
  const container = await docker.createContainer({
    Image: options.image,
    Cmd: options.cmd,
    User: options.user,
    Labels: { [THROWAWAY_LABEL]: owner },
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: Boolean(options.stdin),
    OpenStdin: Boolean(options.stdin),
    StdinOnce: Boolean(options.stdin),
    NetworkDisabled: true,
    HostConfig: { Mounts: mounts(options.volumes, options.hosts), NetworkMode: 'none' },
  });
  try {
    const socket = (await container.attach({
      stream: true,
      stdout: true,
      stderr: true,
      stdin: Boolean(options.stdin),
      hijack: Boolean(options.stdin),
    })) as unknown as Readable & NodeJS.WritableStream;
    const splitter = new ExecOutputSplitter();
    socket.pipe(splitter);
    // Writes into a connection whose container already exited fail here; the exit code says why.
    socket.on('error', () => {});
    await container.start();
    let inputError: Error | undefined;
    let cancelled = false;
    // The attach connection goes first: an engine writing into a connection nobody reads holds the container
    // (Docker 20.10 then hangs `inspect` and `kill` on it, and listings that wait for it). Then the kill; the
    // removal below (forced) ends it whatever the kill did.
    const stop = () => {
      socket.destroy();
      container.kill().catch(() => {
        // Already gone, or the engine is slow: the forced removal after `wait` ends it either way.
      });
    };
    if (options.stdin) {
      options.stdin.pipe(socket);
      // A refused or failed input stops the command: it must not finish on half of it.
      options.stdin.once('error', (error) => {
        inputError = error;
        stop();
      });
    }
    const finished = (async () => {
      try {
        const { StatusCode } = (await container.wait()) as { StatusCode: number };
        if (inputError) throw inputError;
        if (cancelled) throw new Error(`${options.cmd[0] ?? 'command'} was stopped`);
        if (StatusCode !== 0) throw new ExecFailure(StatusCode, splitter.stderr, options.cmd[0] ?? 'command');
        // The output may still be in flight when the engine reports the exit.
        if (!splitter.writableFinished) {
          await new Promise((resolve) => {
            splitter.once('finish', resolve);
            splitter.once('close', resolve);
          });
        }
      } finally {
        socket.destroy();
        await removeContainer(docker, container.id);
      }
    })();
    finished.catch(() => {}); // the caller awaits it
    return {
      stdout: splitter,
      finished,
      cancel: () => {
        cancelled = true;
        splitter.destroy();
        stop();
      },
    };
  } catch (error) {
    await removeContainer(docker, container.id);
    throw error;
  }
}

/**
 * A new empty volume labelled as the engine's own; the caller removes it (removeThrowawayVolume). With
 * `restoreId`, it belongs to that restore: crash clean-up leaves it to the restore's recovery.
 */
export async function createThrowawayVolume(
  { docker, owner }: ThrowawayOwner,
  purpose: string,
  restoreId?: string,
): Promise<string> {
  const name = `slipway-backup-${purpose}-${randomUUID().slice(0, 8)}`;
  await docker.createVolume({
    Name: name,
    Labels: { [THROWAWAY_LABEL]: owner, ...(restoreId ? { [RESTORE_LABEL]: restoreId } : {}) },
  });
  return name;
}

/** The restores of this owner that have volumes on the engine (theirs to finish or remove). */
export async function restoresWithVolumes({ docker, owner }: ThrowawayOwner): Promise<string[]> {
  const { Volumes } = await docker.listVolumes({ filters: { label: [`${THROWAWAY_LABEL}=${owner}`] } });
  return [
    ...new Set((Volumes ?? []).flatMap((volume) => volume.Labels?.[RESTORE_LABEL] ?? []).filter(Boolean)),
  ];
}

export async function removeThrowawayVolume(docker: Docker, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await docker.getVolume(name).remove({ force: true });
      return;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404) return;
      if (status !== 409 || attempt >= 5) throw error;
    }
    // In use: a throwaway container the engine has not yet seen go (its removal raced with this). Only the
    // engine's own containers mount its volumes, so whatever still does is removed.
    const users = await docker.listContainers({ all: true, filters: { volume: [name] } });
    for (const user of users) await removeContainer(docker, user.Id);
  }
}

/** How long a throwaway server has to shut down cleanly before the engine kills it. */
const SERVER_STOP_SECONDS = 120;

/** A throwaway database server: `image`'s own command on a fresh volume at `dataPath`; no network. */
export async function startThrowawayServer(
  { docker, owner }: ThrowawayOwner,
  options: { image: string; volume: string; dataPath: string; env: string[]; cmd?: string[]; of: string },
): Promise<{ id: string; stop(): Promise<void>; remove(): Promise<void> }> {
  const container = await docker.createContainer({
    Image: options.image,
    Cmd: options.cmd,
    Env: options.env,
    Labels: { [THROWAWAY_LABEL]: owner, [THROWAWAY_OF_LABEL]: options.of },
    NetworkDisabled: true,
    HostConfig: { Mounts: mounts([{ volume: options.volume, path: options.dataPath }]), NetworkMode: 'none' },
  });
  const remove = () => removeContainer(docker, container.id);
  try {
    await container.start();
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    id: container.id,
    // The server's own shutdown (SIGTERM, as `docker stop`), so its files are consistent at rest.
    stop: async () => {
      await container.stop({ t: SERVER_STOP_SECONDS }).catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 304) throw error;
      });
    },
    remove,
  };
}

/**
 * Removes what a crash left of this owner's throwaway containers and volumes (never another server's, and never
 * a restore's volume: it may hold the only copy of live data until the restore's recovery puts it back).
 */
export async function removeThrowawayLeftovers({ docker, owner }: ThrowawayOwner): Promise<void> {
  const filters = { label: [`${THROWAWAY_LABEL}=${owner}`] };
  for (const container of await docker.listContainers({ all: true, filters })) {
    await removeContainer(docker, container.Id);
  }
  for (const volume of (await docker.listVolumes({ filters })).Volumes ?? []) {
    if (!volume.Labels?.[RESTORE_LABEL]) await removeThrowawayVolume(docker, volume.Name);
  }
}
