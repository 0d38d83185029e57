import type { Redis } from 'ioredis';

/** Every key Slipway writes to Redis starts with this, then the type: sessions, workflows, jobs, ... */
export const REDIS_PREFIX = 'slipway';
export const redisKey = (namespace: string, key: string) => `${REDIS_PREFIX}:${namespace}:${key}`;
export const redisPattern = (namespace: string) => `${REDIS_PREFIX}:${namespace}:*`;

/** Visits every key matching `pattern` in batches, without blocking Redis the way KEYS would. */
export async function scanKeys(redis: Redis, pattern: string, visit: (keys: string[]) => Promise<void>) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await visit(keys);
  } while (cursor !== '0');
}

export async function countKeys(redis: Redis, pattern: string): Promise<number> {
  let total = 0;
  await scanKeys(redis, pattern, async (keys) => {
    total += keys.length;
  });
  return total;
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<number> {
  let total = 0;
  await scanKeys(redis, pattern, async (keys) => {
    total += await redis.unlink(...keys);
  });
  return total;
}
