import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';

/**
 * The signed-in user of a request, as far as the guards below need it. auth/requestContext.ts loads it and
 * widens this interface to the whole user row (declaration merging), so http/ depends on no domain folder.
 */
export interface RequestUser {
  id: string;
  whitelisted: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | undefined;
    /**
     * The only workspaces the request may touch or show, when its credential is limited to some (an API
     * token's list, set by api-tokens/); undefined: every workspace of its user.
     */
    workspaceLimit: readonly string[] | undefined;
    /**
     * Aborts when the credential the request came with ends (an API token revoked or expired): a stream it
     * opened closes then (sse.ts).
     */
    credentialEnd: AbortSignal | undefined;
  }
}

/** Signed in, any account. */
export async function requireUser(request: FastifyRequest) {
  if (!request.user) throw new DomainError('unauthenticated', 'Please sign in to continue');
}

/** Signed in and let in from the waiting list. */
export async function requireWhitelisted(request: FastifyRequest) {
  await requireUser(request);
  if (!request.user?.whitelisted) {
    throw new DomainError('not_whitelisted', "You're on the waiting list", { redirect: '/waiting-list' });
  }
}
