import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';

const NAMESPACE = 'tokens';

export interface Lease {
  /** Whether this process holds the lease right now. */
  readonly held: boolean;
  stop(): Promise<void>;
}

/**
 * A lease in the shared key-value store so that, among server replicas, exactly one runs a singleton
 * task (the log collector of one VM, the health checks). The store offers an atomic increment but no
 * compare-and-set, so the first increment of an absent key wins and the winner writes its id beside it;
 * a holder that finds another id there (it stalled past the TTL) steps down.
 */
export function holdLease(options: {
  kv: KeyValueStore;
  name: string;
  ttlMs?: number;
  logger: Logger;
  onAcquired: () => Promise<void> | void;
  onLost: () => Promise<void> | void;
}): Lease {
  if (options.kv.onlyThisProcess) return heldAlone(options);
  const ttlMs = options.ttlMs ?? 30_000;
  const me = randomUUID();
  const counterKey = `lease:${options.name}`;
  const ownerKey = `lease-owner:${options.name}`;
  let held = false;
  let stopped = false;

  const tick = async () => {
    if (stopped) return;
    try {
      if (held) {
        const owner = await options.kv.get<string>(NAMESPACE, ownerKey);
        if (owner === me && (await options.kv.expire(NAMESPACE, counterKey, ttlMs))) {
          await options.kv.expire(NAMESPACE, ownerKey, ttlMs);
          return;
        }
        held = false;
        options.logger.warn({ lease: options.name }, 'lease lost');
        await options.onLost();
        return;
      }
      if ((await options.kv.get(NAMESPACE, counterKey)) !== undefined) return;
      if ((await options.kv.increment(NAMESPACE, counterKey, ttlMs)).count !== 1) return;
      await options.kv.set(NAMESPACE, ownerKey, me, ttlMs);
      held = true;
      await options.onAcquired();
    } catch (error) {
      options.logger.warn({ err: error, lease: options.name }, 'lease check failed');
    }
  };

  let running = tick();
  const timer = setInterval(
    () => {
      running = running.then(tick);
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  timer.unref();

  return {
    get held() {
      return held;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      if (!held) return;
      held = false;
      await options.onLost();
      // Hand over at once rather than after the TTL.
      const owner = await options.kv.get<string>(NAMESPACE, ownerKey).catch(() => undefined);
      if (owner === me) {
        await options.kv.delete(NAMESPACE, counterKey).catch(() => false);
        await options.kv.delete(NAMESPACE, ownerKey).catch(() => false);
      }
    },
  };
}

/**
 * The lease when the store is this process's alone (the embedded database): held from the start, with nothing
 * to renew — no query every few seconds for each of the dozen leases of an idle control plane.
 */
function heldAlone(options: Parameters<typeof holdLease>[0]): Lease {
  let held = false;
  let stopped = false;
  const acquired = Promise.resolve().then(async () => {
    if (stopped) return;
    held = true;
    try {
      await options.onAcquired();
    } catch (error) {
      options.logger.warn({ err: error, lease: options.name }, 'lease check failed');
    }
  });
  return {
    get held() {
      return held;
    },
    async stop() {
      stopped = true;
      await acquired;
      if (!held) return;
      held = false;
      await options.onLost();
    },
  };
}

/**
 * Work that runs in one replica at a time: `onAcquired` starts it when this replica holds the lease,
 * `onLost` stops it when the lease goes (or on `stop`).
 */
export function whileLeaseHeld(options: Parameters<typeof holdLease>[0]) {
  let lease: Lease | undefined;
  return {
    start() {
      lease ??= holdLease(options);
    },
    async stop() {
      await lease?.stop();
      lease = undefined;
      await options.onLost();
    },
  };
}
