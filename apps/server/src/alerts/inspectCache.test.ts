import type Docker from 'dockerode';
import { afterEach, expect, it, vi } from 'vitest';
import type { ContainerSummary } from '../workspaces/workspaceDocker.js';
import { createInspectCache, INSPECT_KEPT_MS } from './inspectCache.js';

afterEach(() => vi.useRealTimers());

it('keeps a running container’s inspection while the list agrees, and inspects again on any sign of change', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  let inspects = 0;
  let running = true;
  const docker = {
    getContainer: () => ({
      inspect: async () => {
        inspects++;
        return { State: { Running: running, Restarting: false } } as Docker.ContainerInspectInfo;
      },
    }),
  } as unknown as Docker;
  const listed = (state: string, status: string) =>
    ({ Id: 'c1', State: state, Status: status }) as ContainerSummary;
  const cache = createInspectCache();

  await cache.inspect(docker, listed('running', 'Up 2 minutes (healthy)'));
  await cache.inspect(docker, listed('running', 'Up 3 minutes (healthy)'));
  expect(inspects).toBe(1);
  // Its health changed in the list: inspected again.
  await cache.inspect(docker, listed('running', 'Up 3 minutes (unhealthy)'));
  expect(inspects).toBe(2);
  // An engine event about it (a die, a start, a health change) forgets it.
  cache.forget('c1');
  await cache.inspect(docker, listed('running', 'Up 3 minutes (unhealthy)'));
  expect(inspects).toBe(3);
  // The list shows it stopped (an event missed): inspected, and a stopped container is never kept.
  running = false;
  await cache.inspect(docker, listed('exited', 'Exited (1) 2 seconds ago'));
  await cache.inspect(docker, listed('exited', 'Exited (1) 3 seconds ago'));
  expect(inspects).toBe(5);
  // However quiet, a running container is inspected again once INSPECT_KEPT_MS passed.
  running = true;
  await cache.inspect(docker, listed('running', 'Up 1 second'));
  await cache.inspect(docker, listed('running', 'Up 2 seconds'));
  expect(inspects).toBe(6);
  vi.setSystemTime(Date.now() + INSPECT_KEPT_MS);
  await cache.inspect(docker, listed('running', 'Up 5 minutes'));
  expect(inspects).toBe(7);
});
