import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_PATTERN,
  API_TOKEN_PREFIX,
  type ApiToken,
  type CreateApiToken,
  type CreatedApiToken,
  createApiTokenSchema,
  type TokenScope,
} from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { ApiTokenRow, ApiTokensRepository } from './apiTokensRepository.js';
import { createTokenEnds, type TokenEndWatch } from './tokenEnds.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BODY_LENGTH = 40;
const DAY_MS = 24 * 60 * 60_000;
/** Last use is written at most this often per token: one write a minute, not one per request. */
const TOUCH_EVERY_MS = 60_000;

/** 40 characters of 62, drawn without bias: about 238 bits. */
function newToken(): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 × 62: bytes above it would favour the first letters.
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `${API_TOKEN_PREFIX}${body}`;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function presentToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as TokenScope[],
    workspaces: row.workspaces ?? null,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** A request's token, once it is known to be valid: whose, what it may do, where. */
export interface TokenIdentity {
  id: string;
  userId: string;
  scopes: TokenScope[];
  workspaces: string[] | null;
  expiresAt: Date | null;
}

export function createApiTokensService(deps: {
  tokens: ApiTokensRepository;
  pubsub: PubSub;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const { tokens } = deps;
  const ends = createTokenEnds({ pubsub: deps.pubsub, now });
  return {
    async create(user: { id: string; login: string }, input: CreateApiToken): Promise<CreatedApiToken> {
      const parsed = createApiTokenSchema.parse(input);
      const token = newToken();
      const row = await tokens.insert({
        userId: user.id,
        name: parsed.name,
        tokenHash: hashToken(token),
        prefix: token.slice(0, API_TOKEN_PREFIX.length + 4),
        scopes: parsed.scopes,
        workspaces: parsed.workspaces,
        expiresAt:
          parsed.expires_in_days === null
            ? null
            : new Date(now().getTime() + parsed.expires_in_days * DAY_MS),
      });
      await tokens.audit(user.login, 'api_token.created', user.id, {
        token_id: row.id,
        name: row.name,
        scopes: row.scopes,
        workspaces: row.workspaces,
        expires_at: row.expiresAt?.toISOString() ?? null,
      });
      return { token, api_token: presentToken(row) };
    },

    async list(userId: string): Promise<ApiToken[]> {
      return (await tokens.listForUser(userId)).map(presentToken);
    },

    async revoke(user: { id: string; login: string }, id: string) {
      const row = await tokens.delete(user.id, id);
      if (!row) throw new DomainError('not_found', 'That token was not found');
      await ends.ended(row.id);
      await tokens.audit(user.login, 'api_token.revoked', user.id, { token_id: row.id, name: row.name });
      return { success: true as const, message: `Token ${row.name} revoked` };
    },

    /** The token's identity, or a 401 in words: unknown, malformed, expired or revoked are told apart only in the log. */
    async authenticate(token: string): Promise<TokenIdentity> {
      const row = API_TOKEN_PATTERN.test(token) ? await tokens.findByHash(hashToken(token)) : undefined;
      const at = now();
      if (!row || (row.expiresAt && row.expiresAt <= at)) {
        throw new DomainError(
          'unauthenticated',
          'This API token is not valid: it may have expired or been revoked',
        );
      }
      if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
        await tokens.touch(row.id, at);
      }
      return {
        id: row.id,
        userId: row.userId,
        scopes: row.scopes as TokenScope[],
        workspaces: row.workspaces ?? null,
        expiresAt: row.expiresAt,
      };
    },

    /**
     * Watches a token while a stream opened with it is open: the watch's signal aborts when the token is
     * revoked (on any replica) or expires.
     */
    async watchEnd(identity: TokenIdentity): Promise<TokenEndWatch> {
      const watch = await ends.watch(identity);
      // Revoked between the check that let the request in and the watch: end it now.
      if (!(await tokens.exists(identity.id))) await ends.ended(identity.id);
      return watch;
    },

    /** Streams watched now (tests: none is left once they close). */
    watchedStreams: () => ends.watchedCount(),

    stop: () => ends.stop(),

    /** A refused use, for the admin's audit trail. */
    async refused(identity: TokenIdentity, route: string, reason: string) {
      await tokens.audit(`token:${identity.id}`, 'api_token.refused', identity.userId, { route, reason });
    },
  };
}

export type ApiTokensService = ReturnType<typeof createApiTokensService>;
