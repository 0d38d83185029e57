import { REDIS_PREFIX } from '../kv/redisKeys.js';

/**
 * BullMQ keys live under `slipway:jobs:` so the admin panel can count and flush them by type. Its own module so
 * the admin panel reads it without loading BullMQ in a server that has no Redis.
 */
export const BULLMQ_PREFIX = `${REDIS_PREFIX}:jobs`;
