import { buildPath, type RouteBody, type RouteParams, type RouteQuery } from './route.js';
import { ROUTE_ENDPOINTS } from './routeEndpoints.js';
import type { RouteName, Routes } from './routes.js';

type ParamsOption<N extends RouteName> =
  RouteParams<Routes[N]> extends undefined ? { params?: undefined } : { params: RouteParams<Routes[N]> };
type BodyOption<N extends RouteName> =
  RouteBody<Routes[N]> extends undefined ? { body?: undefined } : { body: RouteBody<Routes[N]> };

/** What a call to route N sends: its path parameters and body when it has them, and a query. */
export type RouteInput<N extends RouteName> = ParamsOption<N> &
  BodyOption<N> & { query?: RouteQuery<Routes[N]> };

/** A client's arguments for route N: the call may be left out only when it needs no parameters and no body. */
export type RouteCallArgs<C> = object extends C ? [call?: C] : [call: C];

/** A route call made concrete: the method, the path with its parameters filled, the query and the body. */
export interface RouteRequest {
  method: (typeof ROUTE_ENDPOINTS)[RouteName]['method'];
  path: string;
  query: Record<string, unknown> | undefined;
  body: unknown;
}

/**
 * Turns a call by route name into a request, from ROUTE_ENDPOINTS (no zod): the one place both clients — the
 * web app's axios one and the CLI's fetch one — learn a route's method and path.
 */
export function routeRequest<N extends RouteName>(name: N, call?: RouteInput<N>): RouteRequest {
  const { method, path } = ROUTE_ENDPOINTS[name];
  return {
    method,
    path: buildPath(path, call?.params as Record<string, string> | undefined),
    query: call?.query as Record<string, unknown> | undefined,
    body: call?.body,
  };
}
