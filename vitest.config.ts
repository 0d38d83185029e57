import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          // A bound, not a wait: tests wait on conditions. Real builds and deployments on a 2-core machine with
          // another build beside them take up to ~90 s.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
          // Two files at a time: most of their time is spent waiting on Docker, PostgreSQL and Redis. Each
          // worker has its own Redis database and each test its own PostgreSQL database (test/testPlatform.ts).
          poolOptions: { forks: { maxForks: 2, minForks: 1 } },
        },
      },
      {
        test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.ts'] },
      },
      {
        test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
});
