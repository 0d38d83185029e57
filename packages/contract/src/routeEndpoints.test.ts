import { describe, expect, it } from 'vitest';
import { ROUTE_ENDPOINTS } from './routeEndpoints.js';
import { ROUTES } from './routes.js';

describe('the route endpoints (the route table without its schemas)', () => {
  it('lists every route of ROUTES with the same method and path, and nothing else', () => {
    const fromTable = Object.fromEntries(
      Object.entries(ROUTES).map(([name, { method, path }]) => [name, { method, path }]),
    );
    expect(ROUTE_ENDPOINTS).toEqual(fromTable);
  });

  it('holds no schema (a browser importing it ships no zod)', () => {
    for (const endpoint of Object.values(ROUTE_ENDPOINTS)) {
      expect(Object.keys(endpoint).sort()).toEqual(['method', 'path']);
    }
  });
});
