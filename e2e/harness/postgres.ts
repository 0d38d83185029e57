import { freshPostgresDatabase } from '../../apps/server/src/test/postgresDatabase.js';

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
  const database = await freshPostgresDatabase(serverUrl);
  return { env: { DATABASE_URL: database.url, REDIS_URL: redisUrl }, drop: database.drop };
}
