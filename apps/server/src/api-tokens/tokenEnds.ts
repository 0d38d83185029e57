import type { PubSub, Unsubscribe } from '../infra/pubsub/pubSub.js';

/** Where a revoke is told to every replica: the token's id. */
const CHANNEL = 'api-tokens:ended';
/** setTimeout's longest delay (about 24.8 days); a later expiry is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface TokenEndWatch {
  /** Aborts when the token ends: revoked (on any replica) or expired. */
  readonly signal: AbortSignal;
  /** The request is over: stop watching. */
  release(): void;
}

/**
 * What is already open with a token ends with it: a stream opened with a token is closed when the token is
 * revoked (pub/sub, so on every replica) or expires. Requests answer once and need none of this: the next one
 * is refused by the token check itself.
 */
export function createTokenEnds(deps: { pubsub: PubSub; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const watching = new Map<string, Set<AbortController>>();
  let subscribed: Promise<Unsubscribe> | undefined;

  const endAll = (tokenId: string) => {
    for (const controller of watching.get(tokenId) ?? []) controller.abort();
    watching.delete(tokenId);
  };

  return {
    /** Listens for ends on the other replicas; watch() waits for it, so no end is missed once it returns. */
    ready(): Promise<unknown> {
      subscribed ??= deps.pubsub.subscribe(CHANNEL, (message) => {
        if (typeof message === 'string') endAll(message);
      });
      return subscribed;
    },

    /** Tells every replica (this one first) that the token ended: its open streams close. */
    async ended(tokenId: string) {
      endAll(tokenId);
      await deps.pubsub.publish(CHANNEL, tokenId);
    },

    /** Watches a token for as long as one request that used it is open. */
    async watch(token: { id: string; expiresAt: Date | null }): Promise<TokenEndWatch> {
      await this.ready();
      const controller = new AbortController();
      const set = watching.get(token.id) ?? new Set();
      set.add(controller);
      watching.set(token.id, set);
      let timer: NodeJS.Timeout | undefined;
      const expire = () => {
        const left = (token.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY) - now().getTime();
        if (left <= 0) controller.abort();
        else if (Number.isFinite(left)) timer = setTimeout(expire, Math.min(left, LONGEST_TIMER_MS)).unref();
      };
      expire();
      return {
        signal: controller.signal,
        release() {
          clearTimeout(timer);
          set.delete(controller);
          if (set.size === 0 && watching.get(token.id) === set) watching.delete(token.id);
        },
      };
    },

    /** Streams being watched, for tests: every released watch is gone. */
    watchedCount: () => [...watching.values()].reduce((sum, set) => sum + set.size, 0),

    async stop() {
      const unsubscribe = await subscribed;
      subscribed = undefined;
      await unsubscribe?.();
    },
  };
}

export type TokenEnds = ReturnType<typeof createTokenEnds>;
