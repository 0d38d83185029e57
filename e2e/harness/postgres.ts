import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ProductionBackends {
  /** Server environment: a fresh PostgreSQL database and the test Redis. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * PostgreSQL and Redis as production runs them, for a browser journey that must not only pass on the
 * embedded defaults. `scripts/test.sh` starts both; under CI=true their absence fails the run.
 */
export async function productionBackends(): Promise<ProductionBackends | undefined> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!serverUrl || !redisUrl) {
    if (process.env.CI === 'true') {
      throw new Error(
        'CI=true but TEST_DATABASE_URL or TEST_REDIS_URL is not set: run through scripts/test.sh',
      );
    }
    return undefined;
  }
  const name = `slipway_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: databaseUrl.toString(), REDIS_URL: redisUrl },
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
