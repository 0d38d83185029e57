import { ROUTE_LIST, type RouteName, scopesAllow, TOKEN_RULES, type TokenRule } from '@slipway/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import type { RateLimiter } from '../http/rateLimit.js';
import type { RequestUser } from '../http/requestContext.js';
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
 * the scope its route needs, never an admin or session-only route, only the workspaces the token names, and
 * at most RATE_LIMITS.apiToken requests a minute.
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

  async function workspaceOf(request: FastifyRequest, rule: Extract<TokenRule, { workspace: unknown }>) {
    const { workspace } = rule;
    if (typeof workspace === 'string') return workspace;
    const source = workspace.from === 'body' ? request.body : request.params;
    const value = (source as Record<string, unknown> | undefined)?.[workspace.key];
    if (typeof value !== 'string') return undefined;
    const userId = request.apiToken!.userId;
    if (workspace.from === 'session') return deps.workspaces.bySession(userId, value);
    if (workspace.from === 'deployment') return deps.workspaces.byDeployment(userId, value);
    return value;
  }

  return {
    /** onRequest, for a request that carries a token: who it is, and whether its route is open to the token at all. */
    async authenticate(request: FastifyRequest, token: string) {
      const identity = await deps.service.authenticate(token);
      request.apiToken = identity;
      await deps.limits.hit('apiToken', identity.id);
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
    },

    /** preValidation (the body is parsed by then): a token limited to some workspaces touches only those. */
    async checkWorkspace(request: FastifyRequest) {
      const identity = request.apiToken;
      if (!identity?.workspaces) return;
      const name = routeOf(request);
      if (!name) return;
      const rule: TokenRule = TOKEN_RULES[name];
      if (!('workspace' in rule)) return;
      const workspace = await workspaceOf(request, rule);
      if (workspace === 'account') return;
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

/** The token checks that need the route's input: the workspace a limited token may touch, once the body is read. */
export function registerTokenChecks(app: FastifyInstance, guard: TokenGuard) {
  app.decorateRequest('apiToken', undefined);
  app.addHook('preValidation', async (request) => guard.checkWorkspace(request));
}
