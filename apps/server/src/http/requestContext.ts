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
