import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { removeThrowawayLeftovers } from '../../infra/docker/throwawayContainers.js';

/** How a files copy holds a service still: frozen (`docker pause`) or stopped and started again. */
export type HoldMode = 'pause' | 'stop';

interface HoldRecord {
  mode: HoldMode;
  containers: string[];
}

const ignoreGone = (error: { statusCode?: number }) => {
  // 404: removed meanwhile; 304/409: already in the state asked for.
  if (![304, 404, 409].includes(error.statusCode ?? 0)) throw error;
};

async function release(docker: Docker, mode: HoldMode, id: string): Promise<void> {
  const container = docker.getContainer(id);
  if (mode === 'pause') {
    const state = await container.inspect().then((info) => info.State, ignoreGone);
    if (state?.Paused) await container.unpause().catch(ignoreGone);
  } else {
    await container.start().catch(ignoreGone);
  }
}

/**
 * Pauses (or stops) containers around `work` and always lets them go again: in the `finally`, and after a crash
 * of the server by {@link resumeInterrupted}, which reads the record written here before anything is held.
 */
export async function whileHeld<T>(
  docker: Docker,
  stateDir: string,
  mode: HoldMode,
  containerIds: string[],
  work: () => Promise<T>,
): Promise<T> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const record = join(stateDir, `held-${randomUUID()}.json`);
  await writeFile(record, JSON.stringify({ mode, containers: containerIds } satisfies HoldRecord), {
    mode: 0o600,
  });
  const held: string[] = [];
  let outcome: { value: T } | { error: unknown };
  try {
    for (const id of containerIds) {
      const container = docker.getContainer(id);
      if (mode === 'pause') await container.pause().catch(ignoreGone);
      else await container.stop({ t: 30 }).catch(ignoreGone);
      held.push(id);
    }
    outcome = { value: await work() };
  } catch (error) {
    outcome = { error };
  }
  const failures: unknown[] = [];
  for (const id of held) await release(docker, mode, id).catch((error) => failures.push(error));
  // The record stays when a container could not be let go, so that the next start tries again.
  if (failures.length === 0) await rm(record, { force: true });
  if ('error' in outcome) throw outcome.error;
  if (failures.length) throw failures[0];
  return outcome.value;
}

/**
 * At start: lets go what an interrupted copy of this server held — the records written before anything was paused
 * or stopped say which containers — and removes this server's throwaway containers and volumes. Only its own:
 * another server (or test run) on the same Docker Engine may be pausing a service or verifying a backup right
 * now. Answers the ids it let go.
 */
export async function resumeInterrupted(docker: Docker, stateDir: string, owner: string): Promise<string[]> {
  const resumed = new Set<string>();
  const records = await readdir(stateDir).catch(() => [] as string[]);
  for (const name of records.filter((file) => /^held-[0-9a-f-]+\.json$/.test(file))) {
    const path = join(stateDir, name);
    const record = JSON.parse(await readFile(path, 'utf8')) as HoldRecord;
    for (const id of record.containers) {
      await release(docker, record.mode, id);
      resumed.add(id);
    }
    await rm(path, { force: true });
  }
  await removeThrowawayLeftovers({ docker, owner });
  return [...resumed];
}
