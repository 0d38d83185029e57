import type { RouteHandlers } from '../http/registerRoutes.js';
import type { ApiTokensService } from './apiTokensService.js';

/** Account Settings → API Tokens: a signed-in person's only (the token rules refuse every token here). */
export function apiTokenRoutes(deps: { apiTokens: ApiTokensService }) {
  const { apiTokens } = deps;
  return {
    listApiTokens: ({ user, reply }) => {
      reply.header('cache-control', 'no-store');
      return apiTokens.list(user.id);
    },
    createApiToken: ({ user, body, reply }) => {
      // Shown once: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return apiTokens.create(user, body);
    },
    revokeApiToken: ({ user, params }) => apiTokens.revoke(user, params.id),
  } satisfies Partial<RouteHandlers>;
}
