import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { TEST_IMAGE } from './runningWorkspaces.js';

/** On every container made here, so that a test run's leftovers can be found. */
export const WEDGE_LABEL = 'dev.slipway.test-wedged';
const FLOOD =
  'while :; do echo "the output nobody reads, the output nobody reads, the output nobody reads"; done';

/** What inspect says within `ms`: the container's state, or `hung`. */
async function stateWithin(container: Docker.Container, ms: number): Promise<'running' | 'ended' | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  const state = container.inspect().then(
    (info) => (info.State.Running ? ('running' as const) : ('ended' as const)),
    () => 'ended' as const,
  );
  return Promise.race([state, late]).finally(() => clearTimeout(timer));
}

export interface WedgedContainer {
  id: string;
  /** Closes the unread connection: the engine finishes the kill and answers about the container again. */
  release(): Promise<void>;
}

/**
 * A container the Docker Engine cannot answer about, made as a backup's `tar` throwaway became one: its output is
 * attached and never read, it floods stdout until everything between it and the attach connection is full, and
 * then it is killed. The engine holds the container's lock while it waits for the output to drain, so inspect,
 * top, logs, stats, kill and remove wait on it until the connection is read or closed. `docker ps` still lists it
 * as running. Made with the test's own client (no deadlines): `docker` is the raw engine.
 */
export async function wedgedContainer(
  docker: Docker,
  labels: Record<string, string> = {},
  name?: string,
): Promise<WedgedContainer> {
  // How long it floods before the kill: the buffers' size in time, doubled until the kill wedges it.
  for (let floodMs = 1000; floodMs <= 16_000; floodMs *= 2) {
    const container = await docker.createContainer({
      ...(name ? { name } : {}),
      Image: TEST_IMAGE,
      Cmd: ['sh', '-c', FLOOD],
      AttachStdout: true,
      AttachStderr: true,
      Labels: { [WEDGE_LABEL]: 'true', ...labels },
    });
    const output = (await container.attach({
      stream: true,
      stdout: true,
      stderr: true,
    })) as unknown as Readable;
    output.pause();
    await container.start();
    await new Promise((resolve) => setTimeout(resolve, floodMs));
    // The kill itself waits on the output: never awaited. Until it lands, inspect still sees it running.
    container.kill().catch(() => {});
    let state = await stateWithin(container, 3000);
    for (let tries = 0; state === 'running' && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await stateWithin(container, 3000);
    }
    if (state === 'hung') {
      return {
        id: container.id,
        async release() {
          output.destroy();
          await container.remove({ force: true, v: true }).catch(() => {});
        },
      };
    }
    // It died before its output filled up: not wedged. Again, flooding longer.
    output.destroy();
    await container.remove({ force: true, v: true }).catch(() => {});
  }
  throw new Error('could not wedge a container: its output never filled up');
}
