import pino from 'pino';
import { expect, it, vi } from 'vitest';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { createRouteRestorer } from './routeRestorer.js';

const routed = (id: string) =>
  ({
    id,
    name: id,
    serviceUrls: {},
    serviceUpstreams: { web: `127.0.0.1:${4000 + id.length}` },
  }) as unknown as WorkspaceRow;

/**
 * The route check every 10 s: at rest it asks the proxy and reads no workspace row; when routes are missing
 * (Caddy restarted empty) it reads the rows and publishes every workspace's routes again, newer ones included.
 */
it('puts back what the proxy lost, reading workspace rows only when something is missing', async () => {
  const rows = [routed('a'), routed('bb')];
  const inProxy = new Set(['a', 'bb']);
  const published: string[] = [];
  const ingress = {
    kind: 'caddy',
    missing: async (ids: string[]) => ids.filter((id) => !inProxy.has(id)),
    publish: async (workspace: { id: string }) => {
      published.push(workspace.id);
      inProxy.add(workspace.id);
      return {};
    },
  } as unknown as Ingress;
  const workspaces = {
    listRouted: vi.fn(async () => rows),
    listRoutedIds: vi.fn(async () => rows.map((row) => row.id)),
    update: async () => undefined,
  };
  const restorer = createRouteRestorer({
    ingress,
    workspaces: workspaces as never,
    logger: pino({ level: 'silent' }),
  });

  expect(await restorer.restoreMissing()).toBe(0);
  expect(await restorer.restoreMissing()).toBe(0);
  expect(workspaces.listRoutedIds).toHaveBeenCalledTimes(1);
  expect(workspaces.listRouted).not.toHaveBeenCalled();

  // A workspace deployed since the ids were read, then Caddy restarted empty: every route comes back.
  rows.push(routed('ccc'));
  inProxy.clear();
  expect(await restorer.restoreMissing()).toBe(3);
  expect(published.sort()).toEqual(['a', 'bb', 'ccc']);
  expect(await restorer.restoreMissing()).toBe(0);
});

/**
 * Issue 39: the first minute after a start, when no workspace had routes yet. The empty list was kept for a
 * minute, so a workspace deployed then lost its routes to a Caddy restart for up to 36 s; now an empty list is
 * read again at each check, and the next check (10 s later) puts the routes back.
 */
it('reads an empty list again at every check, so a workspace routed since a start is watched at once', async () => {
  const rows: WorkspaceRow[] = [];
  const inProxy = new Set<string>();
  const ingress = {
    kind: 'caddy',
    missing: async (ids: string[]) => ids.filter((id) => !inProxy.has(id)),
    publish: async (workspace: { id: string }) => {
      inProxy.add(workspace.id);
      return {};
    },
  } as unknown as Ingress;
  const workspaces = {
    listRouted: vi.fn(async () => rows),
    listRoutedIds: vi.fn(async () => rows.map((row) => row.id)),
    update: async () => undefined,
  };
  const restorer = createRouteRestorer({
    ingress,
    workspaces: workspaces as never,
    logger: pino({ level: 'silent' }),
  });
  expect(await restorer.restoreMissing()).toBe(0);
  // Deployed (routes published), then Caddy restarted empty: the very next check restores it.
  rows.push(routed('first'));
  expect(await restorer.restoreMissing()).toBe(1);
  expect(inProxy.has('first')).toBe(true);
  // With a list that is not empty, a check at rest reads no rows again.
  workspaces.listRoutedIds.mockClear();
  expect(await restorer.restoreMissing()).toBe(0);
  expect(workspaces.listRoutedIds).not.toHaveBeenCalled();
});
