import {
  ROUTE_LIST,
  ROUTES,
  type RouteName,
  scopesAllow,
  TOKEN_RULES,
  type TokenRule,
} from '@slipway/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { type RateLimiter, rateLimitHeaders } from '../http/rateLimit.js';
import type { ParsedInput } from '../http/registerRoutes.js';
import type { RequestUser } from '../http/routeGuards.js';
import type { ApiTokensService, TokenIdentity } from './apiTokensService.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request came with an API token instead of a session. */
    apiToken: TokenIdentity | undefined;
  }
}

const ROUTE_BY_ENDPOINT = new Map<string, RouteName>(
  ROUTE_LIST.map((r) => [`${r.method} ${r.path}`, r.name]),
);

/** The table's name of the route a request matched (HEAD answers as GET), or undefined for an unknown path. */
function routeOf(request: FastifyRequest): RouteName | undefined {
  const path = request.routeOptions.url;
  if (!path) return undefined;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return ROUTE_BY_ENDPOINT.get(`${method} ${path}`);
}

/** Looks up the workspace of a deployment's session or id, among the user's own. */
export interface WorkspaceFinder {
  bySession(userId: string, sessionId: string): Promise<string | undefined>;
  byDeployment(userId: string, deploymentId: string): Promise<string | undefined>;
}

const refusal = (message: string) => new DomainError('insufficient_scope', message);

/**
 * What a request with an API token may reach, from the route table's token rules (contract tokenRules.ts):
 * the scope its route needs, never an admin or session-only route, only the workspaces the token names (a
 * list narrowed to them by `workspaceLimit`), at most RATE_LIMITS.apiToken requests a minute (each answer
 * says how many are left), and a stream only while the token lives.
 */
export function createTokenGuard(deps: {
  service: ApiTokensService;
  findUser: (id: string) => Promise<RequestUser | undefined>;
  limits: RateLimiter;
  workspaces: WorkspaceFinder;
}) {
  async function refuse(request: FastifyRequest, identity: TokenIdentity, message: string): Promise<never> {
    await deps.service.refused(
      identity,
      `${request.method} ${request.routeOptions.url ?? request.url}`,
      message,
    );
    throw refusal(message);
  }

  async function workspaceOf(
    request: FastifyRequest,
    rule: Extract<TokenRule, { workspace: unknown }>,
    input: ParsedInput,
  ) {
    const { workspace } = rule;
    if (typeof workspace === 'string') return workspace;
    const source = workspace.from === 'body' ? input.body : input.params;
    const value = (source as Record<string, unknown> | undefined)?.[workspace.key];
    if (typeof value !== 'string') return undefined;
    const userId = request.apiToken!.userId;
    if (workspace.from === 'session') return deps.workspaces.bySession(userId, value);
    if (workspace.from === 'deployment') return deps.workspaces.byDeployment(userId, value);
    return value;
  }

  return {
    /** onRequest, for a request that carries a token: who it is, and whether its route is open to the token at all. */
    async authenticate(request: FastifyRequest, reply: FastifyReply, token: string) {
      const identity = await deps.service.authenticate(token);
      request.apiToken = identity;
      request.workspaceLimit = identity.workspaces ?? undefined;
      reply.headers(rateLimitHeaders(await deps.limits.hit('apiToken', identity.id), false));
      const name = routeOf(request);
      if (!name) return; // an unknown path: the not-found answer
      const rule: TokenRule = TOKEN_RULES[name];
      if (rule.scope === 'public') return;
      if (rule.scope === 'never') {
        await refuse(request, identity, 'API tokens cannot use this endpoint; sign in to Slipway instead');
      } else if (!scopesAllow(identity.scopes, rule.scope)) {
        await refuse(request, identity, `This API token lacks the ${rule.scope} scope`);
      }
      request.user = await deps.findUser(identity.userId);
      if (ROUTES[name].kind === 'sse') {
        const watch = await deps.service.watchEnd(identity);
        request.credentialEnd = watch.signal;
        reply.raw.once('close', watch.release);
      }
    },

    /**
     * Once the route's schemas have parsed its input (registerRoutes' `input` check): a token limited to some
     * workspaces touches only those.
     */
    async checkWorkspace(request: FastifyRequest, name: RouteName, input: ParsedInput) {
      const identity = request.apiToken;
      if (!identity?.workspaces) return;
      const rule: TokenRule = TOKEN_RULES[name];
      if (!('workspace' in rule)) return;
      const workspace = await workspaceOf(request, rule, input);
      // A list is narrowed to the token's workspaces by its handler (`workspaceLimit`).
      if (workspace === 'account' || workspace === 'listed') return;
      if (workspace === undefined || workspace === 'none' || !identity.workspaces.includes(workspace)) {
        await refuse(
          request,
          identity,
          `This API token is limited to the workspaces ${identity.workspaces.join(', ')}`,
        );
      }
    },
  };
}

export type TokenGuard = ReturnType<typeof createTokenGuard>;

/** What a token sets on the requests that carry one. */
export function decorateTokenRequests(app: FastifyInstance) {
  app.decorateRequest('apiToken', undefined);
  app.decorateRequest('workspaceLimit', undefined);
  app.decorateRequest('credentialEnd', undefined);
}
