/**
 * Short-lived state shared by every server replica: sessions, live workflow state, rate-limit counters.
 * Redis holds it when REDIS_URL is set; the database otherwise. Both pass `keyValueStore.contract.ts`.
 */
export const KV_NAMESPACES = ['sessions', 'workflows', 'ratelimit', 'tokens'] as const;
export type KvNamespace = (typeof KV_NAMESPACES)[number];

export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends. */
  resetInMs: number;
}

export interface KeyValueStore {
  readonly kind: 'redis' | 'database';
  /**
   * True when no other process can open this store (the embedded database's): whatever it would arbitrate
   * between replicas, such as a lease, is this process's alone.
   */
  readonly onlyThisProcess?: boolean;
  get<T>(namespace: KvNamespace, key: string): Promise<T | undefined>;
  /** Stores `value` (JSON-serialisable); with `ttlMs` it disappears after that long. */
  set(namespace: KvNamespace, key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(namespace: KvNamespace, key: string): Promise<boolean>;
  /** Resets the time to live of an existing key; false when the key does not exist. */
  expire(namespace: KvNamespace, key: string, ttlMs: number): Promise<boolean>;
  /**
   * Atomically adds one and returns the new count, and how long until its window ends (the count then
   * restarts); the window starts with the first increment.
   */
  increment(namespace: KvNamespace, key: string, windowMs: number): Promise<WindowCount>;
  count(namespace: KvNamespace): Promise<number>;
  /** Removes every key of the namespace and returns how many there were. */
  flush(namespace: KvNamespace): Promise<number>;
  close(): Promise<void>;
}
