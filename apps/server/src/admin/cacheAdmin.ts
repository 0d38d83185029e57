import type { RedisFlushType, RedisInfo } from '@slipway/contract';
import { count } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { SessionManager } from '../auth/sessions.js';
import type { Db } from '../infra/db/client.js';
import { queueJobs } from '../infra/db/schema.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { countKeys, deleteKeys, REDIS_PREFIX, redisPattern } from '../infra/kv/redisKeys.js';
import { BULLMQ_PREFIX } from '../infra/queue/bullmqPrefix.js';

const NO_REDIS_STATUS = 'Redis is not configured: sessions, jobs and workflows are stored in the database';

/** Redis key patterns per type the admin panel counts and flushes. Jobs are BullMQ's keys. */
const PATTERNS = {
  sessions: redisPattern('sessions'),
  jobs: `${BULLMQ_PREFIX}:*`,
  workflows: redisPattern('workflows'),
  /** Everything Slipway wrote, including rate-limit counters and one-time tokens. */
  all: `${REDIS_PREFIX}:*`,
} as const satisfies Record<RedisFlushType, string>;

/**
 * The "Redis Management" tab. With Redis it reports and flushes Redis keys by type; without it the same
 * data lives in the database (kv entries and the queue_jobs table), so the same actions work there.
 */
export function createCacheAdmin(deps: {
  redis: Redis | undefined;
  kv: KeyValueStore;
  db: Db;
  sessions: SessionManager;
}) {
  const { redis, kv, db } = deps;

  async function databaseJobs() {
    const [row] = await db.select({ n: count() }).from(queueJobs);
    return Number(row?.n ?? 0);
  }

  async function flushDatabase(type: RedisFlushType): Promise<number> {
    let flushed = 0;
    if (type === 'sessions' || type === 'all') flushed += await kv.flush('sessions');
    if (type === 'workflows' || type === 'all') flushed += await kv.flush('workflows');
    if (type === 'jobs' || type === 'all') {
      flushed += (await db.delete(queueJobs).returning({ id: queueJobs.id })).length;
    }
    if (type === 'all') flushed += (await kv.flush('ratelimit')) + (await kv.flush('tokens'));
    return flushed;
  }

  return {
    async info(): Promise<RedisInfo> {
      if (!redis) {
        const [sessions, workflows, jobs, ratelimit, tokens] = await Promise.all([
          kv.count('sessions'),
          kv.count('workflows'),
          databaseJobs(),
          kv.count('ratelimit'),
          kv.count('tokens'),
        ]);
        const other = ratelimit + tokens;
        return {
          connected: false,
          status: NO_REDIS_STATUS,
          total_keys: sessions + workflows + jobs + other,
          key_counts: { sessions, jobs, workflows, other },
          info: [
            '# Storage',
            'backend:database',
            `sessions:${sessions}`,
            `workflows:${workflows}`,
            `queue_jobs:${jobs}`,
            `ratelimit:${ratelimit}`,
            `tokens:${tokens}`,
          ].join('\n'),
        };
      }
      try {
        const [info, total, sessions, jobs, workflows] = await Promise.all([
          redis.info(),
          redis.dbsize(),
          countKeys(redis, PATTERNS.sessions),
          countKeys(redis, PATTERNS.jobs),
          countKeys(redis, PATTERNS.workflows),
        ]);
        return {
          connected: true,
          status: 'connected',
          total_keys: total,
          key_counts: { sessions, jobs, workflows, other: Math.max(0, total - sessions - jobs - workflows) },
          info: info.replace(/\r\n/g, '\n'),
        };
      } catch (error) {
        return {
          connected: false,
          status: `Redis is unreachable: ${(error as Error).message}`,
          total_keys: 0,
          key_counts: { sessions: 0, jobs: 0, workflows: 0, other: 0 },
          info: '',
        };
      }
    },

    async flush(type: RedisFlushType): Promise<{ success: true; flushed: number; message: string }> {
      const flushed = redis ? await deleteKeys(redis, PATTERNS[type]) : await flushDatabase(type);
      if (type === 'sessions' || type === 'all') deps.sessions.forgetCached();
      const label = type === 'all' ? 'keys' : `${type} keys`;
      return { success: true, flushed, message: `Flushed ${flushed} ${label}` };
    },
  };
}

export type CacheAdmin = ReturnType<typeof createCacheAdmin>;
