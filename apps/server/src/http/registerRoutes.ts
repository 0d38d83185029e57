import {
  ROUTES,
  type RouteDefinition,
  type RouteName,
  type RouteResponse,
  type Routes,
} from '@slipway/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { inputSentences } from './inputSentences.js';
import { requireLoopback } from './loopbackOnly.js';
import { type RequestUser, requireUser, requireWhitelisted } from './routeGuards.js';
import { refuseUnstorableText } from './storableText.js';

type Parsed<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** What a handler of route N receives: its input, already parsed with the route table's schemas. */
export interface RouteCall<N extends RouteName> {
  params: Parsed<Routes[N], 'params'>;
  query: Parsed<Routes[N], 'query'>;
  /** A webhook's body is the bytes as they came (its signature covers them). */
  body: Routes[N]['kind'] extends 'webhook' ? Buffer : Parsed<Routes[N], 'body'>;
  /** Signed in for `user` and `whitelisted` routes (their guard ran first); otherwise whoever may be. */
  user: Routes[N]['access'] extends 'user' | 'whitelisted' ? RequestUser : RequestUser | undefined;
  /** The only workspaces this call may show, when its credential is limited to some (an API token's). */
  workspaceLimit: readonly string[] | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * What a handler answers: the JSON its table entry allows (sent with the route's success status), nothing
 * for a stream (the handler took the reply over), the reply itself for a redirect or a file.
 */
export type RouteAnswer<N extends RouteName> = Routes[N]['kind'] extends 'json' | 'webhook'
  ? RouteResponse<Routes[N]>
  : Routes[N]['kind'] extends 'sse'
    ? undefined
    : FastifyReply;

export type Handler<N extends RouteName> = (call: RouteCall<N>) => RouteAnswer<N> | Promise<RouteAnswer<N>>;

/**
 * One handler per route of the table. The web app's files (kind `static`) may have none: they are served
 * only when the web app is built.
 */
export type RouteHandlers = {
  [N in RouteName]: Routes[N]['kind'] extends 'static' ? Handler<N> | undefined : Handler<N>;
};

/** A route's input once its schemas have parsed it. */
export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** The checks `access` names that http/ cannot make itself (the admin session is the admin area's). */
export interface AccessChecks {
  /** Throws unless the request carries an admin session; runs before the body is read. */
  admin(request: FastifyRequest): Promise<void>;
  /**
   * Throws unless the request's credential may touch what the parsed input names (an API token limited to
   * some workspaces); runs after the input is parsed, before the handler.
   */
  input?(request: FastifyRequest, name: RouteName, input: ParsedInput): Promise<void>;
}

/**
 * Registers every route of the contract's table (ROUTES): its method and path, the guard its `access`
 * names, its body limit, and the parsing of its parameters, query and body with its schemas (in words:
 * inputSentences.ts), refusing text the database cannot store (storableText.ts), before the handler runs. A
 * zod failure becomes a 400 in errorHandler.ts like any other.
 */
export function registerRoutes(app: FastifyInstance, handlers: RouteHandlers, checks: AccessChecks) {
  for (const [name, definition] of Object.entries(ROUTES) as [RouteName, RouteDefinition][]) {
    const handle = handlers[name] as Handler<RouteName> | undefined;
    if (!handle) continue;
    const options: RouteOptions = {
      method: definition.method,
      url: definition.path,
      ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
      ...guardOf(definition, checks),
      handler: handlerOf(name, definition, handle, checks),
    };
    if (definition.kind === 'webhook') registerWebhook(app, options, definition.bodyLimit);
    else app.route(options);
  }
}

/** `user` and `whitelisted` check the session after the body is parsed; `admin` before it is read. */
function guardOf(definition: RouteDefinition, checks: AccessChecks): Partial<RouteOptions> {
  switch (definition.access) {
    case 'public':
      return {};
    case 'user':
      return { preHandler: requireUser };
    case 'whitelisted':
      return { preHandler: requireWhitelisted };
    case 'admin':
      return { onRequest: checks.admin };
    case 'loopback':
      return { onRequest: requireLoopback };
  }
}

/** The route's input parsed with its schemas; a part the route does not take is undefined. */
function parseInput(definition: RouteDefinition, request: FastifyRequest): ParsedInput {
  const input = {
    params: definition.params?.parse(request.params, { error: inputSentences('params') }),
    query: definition.query?.parse(request.query, { error: inputSentences('query') }),
    body:
      definition.kind === 'webhook'
        ? Buffer.isBuffer(request.body)
          ? request.body
          : Buffer.alloc(0)
        : // A route whose body has defaults may be called without one.
          definition.body?.parse(request.body ?? {}, { error: inputSentences('body') }),
  };
  refuseUnstorableText('params', input.params);
  refuseUnstorableText('query', input.query);
  refuseUnstorableText('body', input.body);
  return input;
}

function handlerOf(
  name: RouteName,
  definition: RouteDefinition,
  handle: Handler<RouteName>,
  checks: AccessChecks,
): RouteOptions['handler'] {
  const success = Number(Object.keys(definition.responses)[0] ?? 200);
  return async (request, reply) => {
    const input = parseInput(definition, request);
    await checks.input?.(request, name, input);
    const call = {
      ...input,
      user: request.user,
      workspaceLimit: request.workspaceLimit,
      request,
      reply,
    } as RouteCall<RouteName>;
    const answer = await handle(call);
    if ((definition.kind === 'json' || definition.kind === 'webhook') && success !== 200) {
      reply.status(success);
    }
    return answer;
  };
}

/** A webhook keeps its body as the bytes that came, whatever their content type. */
function registerWebhook(app: FastifyInstance, options: RouteOptions, bodyLimit: number | undefined) {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, raw, done) =>
      done(null, raw),
    );
    scope.route(options);
  });
}
