import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { type Database, openDatabase } from '../infra/db/client.js';
import { createDatabaseKeyValueStore } from '../infra/kv/databaseKeyValueStore.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { createLogger } from '../infra/logging/logger.js';
import { createMailer } from '../infra/mail/mailer.js';
import { createMemoryPubSub } from '../infra/pubsub/memoryPubSub.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import { createInProcessQueue, EMBEDDED_QUEUE_POLL_MS } from '../infra/queue/inProcessQueue.js';
import type { JobQueue } from '../infra/queue/jobQueue.js';
import { createLocalVault } from '../infra/vault/localVault.js';
import { convertLegacyLogLines } from '../logs/legacyLogLines.js';

/**
 * The adapters only some configurations use, imported only by them: Redis and BullMQ with REDIS_URL, Key Vault
 * (Azure's SDK) with AZURE_KEY_VAULT_URL, Octokit in GitHub mode. An embedded install never loads them.
 */
async function connectRedis(url: string, logger: Logger) {
  const [{ Redis }, kv, pubsub, queue] = await Promise.all([
    import('ioredis'),
    import('../infra/kv/redisKeyValueStore.js'),
    import('../infra/pubsub/redisPubSub.js'),
    import('../infra/queue/bullmqQueue.js'),
  ]);
  const redis: Redis = new Redis(url, { lazyConnect: false });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  return {
    redis,
    kv: kv.createRedisKeyValueStore(redis),
    pubsub: pubsub.createRedisPubSub(redis),
    queue: queue.createBullmqQueue(redis),
  };
}

/**
 * The adapters every area shares, chosen from the config: the server's log, the database (PGlite or PostgreSQL),
 * the key-value store, pub/sub and job queue (Redis and BullMQ with REDIS_URL, else the database and this
 * process), the vault (Key Vault when configured) and the mailer. Nothing else decides between them.
 */
export async function openSharedAdapters(
  config: Config,
  options: { secrets: Secrets; logger?: Logger; databaseInMemory?: boolean },
) {
  const { secrets } = options;
  const logger =
    options.logger ?? createLogger({ level: config.logLevel, logDir: path.join(config.dataDir, 'logs') });
  const database: Database = await openDatabase({
    url: config.databaseUrl,
    onIdleError: (error) =>
      logger.warn({ err: error }, 'a PostgreSQL connection was closed; it will be reopened'),
    ...(options.databaseInMemory ? {} : { dataDir: path.join(config.dataDir, 'pglite') }),
  });
  const { db } = database;
  // Logs stored before chunks (migration 0004), once; an install that never had any finds nothing to do.
  const convertedLogLines = await convertLegacyLogLines(db);
  if (convertedLogLines > 0) logger.info({ lines: convertedLogLines }, 'moved stored log lines into chunks');

  const shared = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const redis = shared?.redis;
  const kv: KeyValueStore =
    shared?.kv ??
    createDatabaseKeyValueStore(db, {
      onSweepError: (error) => logger.warn({ err: error }, 'removing expired key-value entries failed'),
      onlyThisProcess: !config.databaseUrl,
    });
  const pubsub: PubSub = shared?.pubsub ?? createMemoryPubSub();
  const queue: JobQueue =
    shared?.queue ??
    createInProcessQueue(db, {
      onClaimError: (error) => logger.warn({ err: error }, 'claiming a queued job failed; trying again'),
      // The embedded database has no other process to enqueue a job: the look is only for a claim that failed.
      ...(config.databaseUrl ? {} : { pollMs: EMBEDDED_QUEUE_POLL_MS }),
    });

  // Key Vault when configured; the local vault still reads the values stored before it was.
  const localVault = createLocalVault(secrets.encryptionKey);
  const { keyVaultUrl, keyVaultKeyName } = config.vm.azure;
  const vault =
    keyVaultUrl && keyVaultKeyName
      ? (await import('../infra/vault/azureKeyVault.js')).createAzureKeyVault({
          vaultUrl: keyVaultUrl,
          keyName: keyVaultKeyName,
          fallback: localVault,
        })
      : localVault;
  const mailer = createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, logger });
  return { logger, database, db, redis, kv, pubsub, queue, vault, mailer };
}

export type SharedAdapters = Awaited<ReturnType<typeof openSharedAdapters>>;
