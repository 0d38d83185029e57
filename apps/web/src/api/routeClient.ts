import {
  buildPath,
  ROUTE_ENDPOINTS,
  type RouteBody,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  type Routes,
} from '@slipway/contract';
import type { AxiosRequestConfig, AxiosResponse } from 'axios';
import { api } from './client';

type ParamsOption<N extends RouteName> =
  RouteParams<Routes[N]> extends undefined ? { params?: undefined } : { params: RouteParams<Routes[N]> };
type BodyOption<N extends RouteName> =
  RouteBody<Routes[N]> extends undefined ? { body?: undefined } : { body: RouteBody<Routes[N]> };

/** What a call to route N sends: its path parameters and body when it has them, a query, axios options. */
export type RouteCall<N extends RouteName> = ParamsOption<N> &
  BodyOption<N> & { query?: RouteQuery<Routes[N]>; config?: AxiosRequestConfig };

/** Options may be left out only when the route takes no path parameters and no body. */
type CallArgs<N extends RouteName> =
  object extends RouteCall<N> ? [call?: RouteCall<N>] : [call: RouteCall<N>];

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
  ...[call]: CallArgs<N>
): Promise<AxiosResponse<RouteResponse<Routes[N]>>> {
  const { method, path } = ROUTE_ENDPOINTS[name];
  const options = (call ?? {}) as RouteCall<N>;
  return api.request<RouteResponse<Routes[N]>>({
    ...options.config,
    method,
    url: buildPath(path, options.params as Record<string, string> | undefined),
    params: options.query,
    data: options.body,
  });
}

/** Calls route N and answers its JSON, typed by the contract's response schema. */
export async function callRoute<N extends RouteName>(
  name: N,
  ...call: CallArgs<N>
): Promise<RouteResponse<Routes[N]>> {
  return (await sendRoute(name, ...call)).data;
}
