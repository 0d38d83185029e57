import { DomainError } from '../domain/errors.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';

interface RateLimitRule {
  /** Attempts allowed per window and client; the next one answers 429 with `message`. */
  limit: number;
  windowMs: number;
  message: string;
}

/**
 * Every rate limit of the API, in one table. Counters live in the shared key-value store (Redis or the
 * database), so every replica counts together; the window starts with a client's first attempt.
 */
export const RATE_LIMITS = {
  adminSignIn: { limit: 5, windowMs: 60_000, message: 'Too many attempts. Wait a minute and try again.' },
  enterpriseInquiry: {
    limit: 10,
    windowMs: 60 * 60_000,
    message: 'Too many inquiries from this address. Please email us instead.',
  },
  /** Test email / Telegram messages go to any address the user types: without a limit, a spam relay. */
  testNotification: {
    limit: 5,
    windowMs: 10 * 60_000,
    message: 'Too many test notifications. Wait a few minutes and try again.',
  },
  /** Per API token: a script in a loop must not starve the server. */
  apiToken: {
    limit: 300,
    windowMs: 60_000,
    message: 'Too many requests with this API token. Wait a minute and try again.',
  },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Where a client stands in its window: what the `RateLimit-*` headers say. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window restarts (at least 1). */
  resetSeconds: number;
}

/**
 * The headers of the IETF draft that @fastify/rate-limit sends in its draft mode (`RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` in seconds), and on a refusal `Retry-After`: the real wait.
 */
export function rateLimitHeaders(state: RateLimitState, refused: boolean): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
    ...(refused ? { 'retry-after': String(state.resetSeconds) } : {}),
  };
}

export interface RateLimiter {
  /**
   * Counts one attempt of `client` and says where it stands; past the limit it throws a 429 DomainError
   * (with `data` in the body, and the headers that say how long to wait).
   */
  hit(name: RateLimitName, client: string, data?: Record<string, unknown>): Promise<RateLimitState>;
  /** Forgets `client`'s attempts: for limits that count failures only, after a success. */
  forgive(name: RateLimitName, client: string): Promise<void>;
}

export function createRateLimiter(kv: KeyValueStore): RateLimiter {
  const key = (name: RateLimitName, client: string) => `${name}:${client}`;
  return {
    async hit(name, client, data) {
      const rule: RateLimitRule = RATE_LIMITS[name];
      // Counted before the work it guards (atomically), so parallel attempts cannot all slip under it.
      const { count, resetInMs } = await kv.increment('ratelimit', key(name, client), rule.windowMs);
      const state = {
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - count),
        resetSeconds: Math.max(1, Math.ceil(resetInMs / 1000)),
      };
      if (count > rule.limit) {
        throw new DomainError('rate_limited', rule.message, {
          retryAfterSeconds: state.resetSeconds,
          headers: rateLimitHeaders(state, true),
          ...(data ? { data } : {}),
        });
      }
      return state;
    },
    async forgive(name, client) {
      await kv.delete('ratelimit', key(name, client));
    },
  };
}
