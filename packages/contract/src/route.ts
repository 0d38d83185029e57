import type { z } from 'zod';
import { errorBodySchema } from './errors.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * How a route answers once its checks pass (failures before that are always JSON error bodies):
 * - json: a JSON body, described by `responses`;
 * - sse: a `text/event-stream` (server-sent events);
 * - redirect: a 302 to a page of the web app (the sign-in flows);
 * - webhook: takes the raw body (its signature covers the exact bytes) and answers JSON;
 * - static: the web app's files (registered only when the web app is built).
 */
export type RouteKind = 'json' | 'sse' | 'redirect' | 'webhook' | 'static';

/**
 * Who may call: anyone, a signed-in user, a whitelisted user, an admin session, or only a direct connection
 * from this machine (loopback, nothing forwarded: Caddy's questions to the control plane).
 */
export type RouteAccess = 'public' | 'user' | 'whitelisted' | 'admin' | 'loopback';

export interface RouteDefinition {
  method: HttpMethod;
  /** Fastify style: `:name` for a parameter, a trailing `*` for the rest of the path. */
  path: string;
  /** What the call does, in a few words: the OpenAPI operation's summary. */
  summary: string;
  kind: RouteKind;
  access: RouteAccess;
  /** One entry per path parameter (`*` included). */
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The largest request body accepted, in bytes (413 beyond); 1 MiB when not set. */
  bodyLimit?: number;
  /** The JSON body per success status. Error statuses answer `errorBodySchema` unless listed here. */
  responses: { readonly [status: number]: z.ZodType };
  /** Anything a caller must know that the schemas do not say. */
  note?: string;
  /**
   * Limited per client beyond the API token's own limit (http/rateLimit.ts holds the numbers): the document
   * lists its 429 answer with the headers that say how long to wait.
   */
  rateLimited?: true;
}

/** Declares one route, keeping its literal types for the typed client. */
export const route = <const R extends RouteDefinition>(definition: R): R => definition;

type SuccessStatus<R extends RouteDefinition> = Extract<keyof R['responses'], number>;

/** The JSON a route answers with on `status` (its first listed success status by default). */
export type RouteResponse<
  R extends RouteDefinition,
  S extends SuccessStatus<R> = SuccessStatus<R>,
> = R['responses'][S] extends z.ZodType ? z.output<R['responses'][S]> : never;
/** What a caller sends; `undefined` when the route takes none. */
export type RouteBody<R extends RouteDefinition> = R['body'] extends z.ZodType
  ? z.input<R['body']>
  : undefined;
export type RouteQuery<R extends RouteDefinition> = R['query'] extends z.ZodType
  ? z.input<R['query']>
  : undefined;
export type RouteParams<R extends RouteDefinition> = R['params'] extends z.ZodObject
  ? z.input<R['params']>
  : undefined;

/** The parameter names of a path, in order: `/a/:x/b/*` → `['x', '*']`. */
export function pathParamNames(path: string): string[] {
  return path.split('/').flatMap((segment) => {
    if (segment.startsWith(':')) return [segment.slice(1)];
    return segment === '*' ? ['*'] : [];
  });
}

/** Fills a path's parameters, each URL-encoded (`*` keeps its slashes). */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path
    .split('/')
    .map((segment) => {
      const name = segment.startsWith(':') ? segment.slice(1) : segment === '*' ? '*' : undefined;
      if (name === undefined) return segment;
      const value = params[name];
      if (value === undefined) throw new Error(`${path}: parameter ${name} is missing`);
      return name === '*' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
    })
    .join('/');
}

/** The schema of a JSON answer with this status, or undefined when none is declared. */
export function responseSchemaFor(definition: RouteDefinition, status: number): z.ZodType | undefined {
  return definition.responses[status] ?? (status >= 400 ? errorBodySchema : undefined);
}
