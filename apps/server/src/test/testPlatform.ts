import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { BackupEngine } from '../backups/engine/backupEngine.js';
import { loadConfig } from '../config/config.js';
import type { ComposeCli } from '../infra/compose/composeCli.js';
import type { Ingress } from '../infra/ingress/ingress.js';
import { buildApp } from '../platform/app.js';
import { createPlatform, type Platform } from '../platform/platform.js';
import type { PullRequestNotes } from '../previews/pullRequestNotes.js';
import { freshPostgresDatabase } from './postgresDatabase.js';
import { requireService } from './services.js';
import { TestClient } from './testClient.js';

export type TestDatabase = 'pglite' | 'postgres';

export interface TestPlatformOptions {
  database?: TestDatabase;
  redis?: boolean;
  env?: Record<string, string>;
  /** The embedded database in DATA_DIR as in production, instead of in memory. */
  databaseOnDisk?: boolean;
  compose?: () => Promise<ComposeCli>;
  /** Instead of the configured ingress (e.g. a recording one, test/recordingIngress.ts). */
  ingress?: Ingress;
  /** Where previews write on pull requests (the GitHub adapter pointed at the stand-in). */
  pullRequestNotes?: PullRequestNotes;
  /** A backup engine of the test's own (schedule and retention tests only) and the backups' clock. */
  backupEngine?: BackupEngine;
  now?: () => Date;
  /** The server's log, for a test that reads it (silent otherwise). */
  logger?: Logger;
}

export interface TestContext {
  platform: Platform;
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

/** Redis database per vitest worker, so parallel test files do not flush each other's keys. */
function redisUrlForWorker(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${Number(process.env.VITEST_POOL_ID ?? '1') % 16}`;
  return url.toString();
}

/**
 * The real platform (real PGlite or PostgreSQL, real Redis when asked) and the real Fastify app,
 * configured as in embedded mode but in a temporary data directory.
 */
export async function createTestContext(options: TestPlatformOptions = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-test-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...options.env,
  };
  if (options.database === 'postgres') {
    const serverUrl = requireService('postgres');
    if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
    const fresh = await freshPostgresDatabase(serverUrl);
    env.DATABASE_URL = fresh.url;
    dropDatabase = fresh.drop;
  }
  if (options.redis) {
    const serverUrl = requireService('redis');
    if (!serverUrl) throw new Error('TEST_REDIS_URL is not set');
    env.REDIS_URL = redisUrlForWorker(serverUrl);
  }
  const config = loadConfig(env);
  const platform = await createPlatform(config, {
    logger: options.logger ?? pino({ level: 'silent' }),
    databaseInMemory: !options.databaseOnDisk,
    ...(options.compose ? { compose: options.compose } : {}),
    ...(options.ingress ? { ingress: options.ingress } : {}),
    ...(options.pullRequestNotes ? { pullRequestNotes: options.pullRequestNotes } : {}),
    ...(options.backupEngine ? { backupEngine: options.backupEngine } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const app = await buildApp(platform, { webDist: path.join(dataDir, 'no-web') });
  await app.ready();
  return {
    platform,
    app,
    dataDir,
    async close() {
      await app.close();
      await platform.close();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a suite once per database driver: PGlite always, PostgreSQL when the test server is up. */
export const DATABASES: TestDatabase[] = requireService('postgres') ? ['pglite', 'postgres'] : ['pglite'];

/** A signed-in client for a new user of its own: for checking that one user never sees another's things. */
export async function signInNewUser(
  ctx: TestContext,
  options: { login?: string; whitelisted?: boolean; email?: string | null } = {},
): Promise<{ client: TestClient; userId: string }> {
  const login = options.login ?? `user-${randomBytes(4).toString('hex')}`;
  const user = await ctx.platform.users.upsertLocal({
    login,
    name: login,
    firstName: login,
    lastName: 'Test',
    email: options.email ?? null,
    whitelisted: options.whitelisted ?? true,
    profileCompleted: true,
  });
  const session = await ctx.platform.sessions.create({ userId: user.id });
  const client = new TestClient(ctx.app);
  client.cookies.set('slipway_session', session.id);
  await client.get('/api/user');
  return { client, userId: user.id };
}
