import {
  buildPath,
  ROUTE_ENDPOINTS,
  type RouteCallArgs,
  type RouteInput,
  type RouteName,
  type RouteParams,
  type RouteResponse,
  type Routes,
  routeRequest,
} from '@slipway/contract';
import type { AxiosRequestConfig, AxiosResponse } from 'axios';
import { api } from './client';

/** What a call to route N sends: its path parameters, body and query (the contract's), and axios options. */
export type RouteCall<N extends RouteName> = RouteInput<N> & { config?: AxiosRequestConfig };

/**
 * A route's path with its parameters filled (URL-encoded), from the contract's route table: for calls
 * the browser makes itself (a stream read with fetch, a full-page navigation).
 */
export function routeUrl<N extends RouteName>(name: N, params?: RouteParams<Routes[N]>): string {
  return buildPath(ROUTE_ENDPOINTS[name].path, params as Record<string, string> | undefined);
}

/** Calls route N through the HTTP client; the whole axios response, for callers that read the status. */
export function sendRoute<N extends RouteName>(
  name: N,
  ...[call]: RouteCallArgs<RouteCall<N>>
): Promise<AxiosResponse<RouteResponse<Routes[N]>>> {
  const { method, path, query, body } = routeRequest(name, call);
  return api.request<RouteResponse<Routes[N]>>({
    ...call?.config,
    method,
    url: path,
    params: query,
    data: body,
  });
}

/** Calls route N and answers its JSON, typed by the contract's response schema. */
export async function callRoute<N extends RouteName>(
  name: N,
  ...call: RouteCallArgs<RouteCall<N>>
): Promise<RouteResponse<Routes[N]>> {
  return (await sendRoute(name, ...call)).data;
}
