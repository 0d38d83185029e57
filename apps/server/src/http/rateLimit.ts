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

export interface RateLimiter {
  /** Counts one attempt of `client`; past the limit it throws a 429 DomainError (with `data` in the body). */
  hit(name: RateLimitName, client: string, data?: Record<string, unknown>): Promise<void>;
  /** Forgets `client`'s attempts: for limits that count failures only, after a success. */
  forgive(name: RateLimitName, client: string): Promise<void>;
}

export function createRateLimiter(kv: KeyValueStore): RateLimiter {
  const key = (name: RateLimitName, client: string) => `${name}:${client}`;
  return {
    async hit(name, client, data) {
      const rule: RateLimitRule = RATE_LIMITS[name];
      // Counted before the work it guards (atomically), so parallel attempts cannot all slip under it.
      const attempts = await kv.increment('ratelimit', key(name, client), rule.windowMs);
      if (attempts > rule.limit) {
        // The window started with the first attempt, at most windowMs ago: waiting that long is always enough.
        const retryAfterSeconds = Math.ceil(rule.windowMs / 1000);
        throw new DomainError('rate_limited', rule.message, { retryAfterSeconds, ...(data ? { data } : {}) });
      }
    },
    async forgive(name, client) {
      await kv.delete('ratelimit', key(name, client));
    },
  };
}
