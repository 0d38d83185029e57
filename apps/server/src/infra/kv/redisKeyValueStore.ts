import type { Redis } from 'ioredis';
import type { KeyValueStore } from './keyValueStore.js';
import { countKeys, deleteKeys, redisKey, redisPattern } from './redisKeys.js';

export function createRedisKeyValueStore(redis: Redis): KeyValueStore {
  return {
    kind: 'redis',
    async get<T>(namespace: Parameters<KeyValueStore['get']>[0], key: string) {
      const raw = await redis.get(redisKey(namespace, key));
      return raw === null ? undefined : (JSON.parse(raw) as T);
    },
    async set(namespace, key, value, ttlMs) {
      const raw = JSON.stringify(value);
      if (ttlMs === undefined) await redis.set(redisKey(namespace, key), raw);
      else await redis.set(redisKey(namespace, key), raw, 'PX', Math.max(1, Math.round(ttlMs)));
    },
    async delete(namespace, key) {
      return (await redis.del(redisKey(namespace, key))) > 0;
    },
    async expire(namespace, key, ttlMs) {
      return (await redis.pexpire(redisKey(namespace, key), Math.max(1, Math.round(ttlMs)))) === 1;
    },
    async increment(namespace, key, windowMs) {
      const fullKey = redisKey(namespace, key);
      const [[, value] = [], , [, ttl] = []] = (await redis
        .multi()
        .incr(fullKey)
        .pexpire(fullKey, windowMs, 'NX')
        .pttl(fullKey)
        .exec()) as [[Error | null, number], [Error | null, number], [Error | null, number]];
      return { count: Number(value), resetInMs: Number(ttl) > 0 ? Number(ttl) : windowMs };
    },
    count: (namespace) => countKeys(redis, redisPattern(namespace)),
    flush: (namespace) => deleteKeys(redis, redisPattern(namespace)),
    async close() {},
  };
}
