import { ROUTE_LIST } from '@slipway/contract';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findTableRoute } from './contractCheck.js';
import { createTestContext, type TestContext } from './testPlatform.js';

/** Every route the real app registers, seen through Fastify's own onRoute hook. */
const registered = vi.hoisted(() => [] as { method: string; path: string }[]);

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const withRouteLog = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push({ method, path: route.url });
    });
    return app;
  }) as typeof actual.default;
  return { ...actual, default: withRouteLog };
});

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('the contract route table against the real app', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  const apiRoutes = () =>
    registered.filter((route) => route.method !== 'HEAD' && route.path.startsWith('/api/')).map(key);

  it('lists every /api route the server registers', () => {
    expect(apiRoutes().length).toBeGreaterThan(50);
    const tableKeys = new Set(ROUTE_LIST.map(key));
    expect(apiRoutes().filter((route) => !tableKeys.has(route))).toEqual([]);
  });

  it('lists no /api route the server does not register', () => {
    const serverKeys = new Set(apiRoutes());
    const missing = ROUTE_LIST.filter((definition) => definition.path.startsWith('/api/'))
      .map(key)
      .filter((route) => !serverKeys.has(route));
    expect(missing).toEqual([]);
  });

  it('matches each request to its own route, literal segments before parameters', () => {
    expect(findTableRoute('GET', '/api/admin/users/waiting-list')?.name).toBe('adminWaitingList');
    expect(findTableRoute('POST', '/api/admin/users/bulk-whitelist')?.name).toBe('bulkWhitelist');
    expect(findTableRoute('POST', '/api/admin/users/u1/whitelist')?.name).toBe('whitelistUser');
    expect(findTableRoute('GET', '/api/github/repos/o/r/contents/a/b.ts?ref=main')?.name).toBe(
      'repositoryContents',
    );
    expect(findTableRoute('POST', '/api/subscriptions/hello')?.name).toBe('createSubscription');
    expect(findTableRoute('GET', '/api/subscriptions/sub1')?.name).toBe('getSubscription');
    expect(findTableRoute('GET', '/api/unknown')).toBeUndefined();
  });
});
