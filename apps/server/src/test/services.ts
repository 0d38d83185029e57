import { describe } from 'vitest';

/**
 * Integration tests need real PostgreSQL, Redis and Docker, which `scripts/test.sh` starts.
 * Run outside it, a suite whose service is missing is skipped with a note; under CI=true it fails instead.
 */
export function requireService(name: 'postgres' | 'redis' | 'docker'): string | undefined {
  const value = {
    postgres: process.env.TEST_DATABASE_URL,
    redis: process.env.TEST_REDIS_URL,
    docker: process.env.TEST_DOCKER ?? (process.env.TEST_DATABASE_URL ? '/var/run/docker.sock' : undefined),
  }[name];
  if (!value && process.env.CI === 'true') {
    throw new Error(`CI=true but ${name} is not available: run the tests through scripts/test.sh`);
  }
  return value;
}

/** `describe` when the service is there, `describe.skip` otherwise (never under CI, see requireService). */
export function describeWith(name: 'postgres' | 'redis' | 'docker'): typeof describe {
  return describe.skipIf(!requireService(name)) as typeof describe;
}
