/**
 * Slipway as the scale bench runs it: one compiled server on its embedded defaults (PGlite, in-process queue),
 * or two compiled servers sharing a fresh PostgreSQL database and a Redis database, as several replicas run
 * (shared DATABASE_URL, REDIS_URL, SESSION_SECRET and ENCRYPTION_KEY; a data directory each).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freshPostgresDatabase } from '../../apps/server/src/test/postgresDatabase.js';
import { type SlipwayProcess, startCompiledSlipway } from './slipwayProcess.js';

export { rssOf } from './slipwayProcess.js';

/** The Redis database the two-replica run uses on the bench's own Redis server, emptied before and after. */
const REDIS_DB = 14;

export interface SlipwayCluster {
  replicas: SlipwayProcess[];
  /** The server processes' pids (each `scripts/start.sh` replaces itself with one Node process). */
  pids: number[];
  stop(): Promise<void>;
}

async function flushRedis(url: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/** Starts `count` (1 or 2) replicas; `env` is what every replica gets (SMTP_URL, LOCAL_REPOS_DIR, …). */
export async function startCluster(
  root: string,
  work: string,
  count: 1 | 2,
  env: { LOCAL_REPOS_DIR: string } & Record<string, string>,
): Promise<SlipwayCluster> {
  const replicas: SlipwayProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const replica of replicas.splice(0)) await replica.stop();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const shared: { LOCAL_REPOS_DIR: string } & Record<string, string> = { ...env };
    if (count === 2) {
      const databaseUrl = process.env.TEST_DATABASE_URL;
      const redisServer = process.env.TEST_REDIS_URL;
      if (!databaseUrl || !redisServer) {
        throw new Error(
          'two replicas need TEST_DATABASE_URL and TEST_REDIS_URL (source scripts/services.sh)',
        );
      }
      const database = await freshPostgresDatabase(databaseUrl);
      cleanups.push(database.drop);
      const redis = new URL(redisServer);
      redis.pathname = `/${REDIS_DB}`;
      await flushRedis(redis.toString());
      cleanups.push(() => flushRedis(redis.toString()));
      Object.assign(shared, {
        DATABASE_URL: database.url,
        REDIS_URL: redis.toString(),
        SESSION_SECRET: randomBytes(32).toString('hex'),
        ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      });
    }
    // One after the other: the first applies the migrations.
    for (let index = 0; index < count; index++) {
      const dataDir = path.join(work, `data-${index + 1}`);
      mkdirSync(dataDir, { recursive: true });
      replicas.push(await startCompiledSlipway(root, { ...shared, DATA_DIR: dataDir }));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { replicas, pids: replicas.map((replica) => replica.child.pid!), stop };
}

/**
 * CPU time a process has used, in seconds: its own (utime + stime, all its threads) and that of the children
 * it has waited for (cutime + cstime: the Compose and git commands it ran), from /proc/{pid}/stat.
 */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; fields from the 3rd on follow its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  return ticks / 100; // USER_HZ is 100 on Linux
}
