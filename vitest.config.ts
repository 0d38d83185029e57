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
          // One file at a time on a 2-core machine (Vitest's pool size is global: the CPU count less one).
          // Files could share a run: each worker has its own Redis database and each test its own PostgreSQL
          // database (test/testPlatform.ts); `--maxWorkers=2` passed all 883 tests, but was no faster here
          // with other builds beside it, since the builds and deployments the tests run are CPU-bound.
          pool: 'forks',
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
          // One browser test file at a time whatever the CPU count: they share the machine's Docker and Chromium.
          // (A project's own `fileParallelism` is not honoured by Vitest 3; the command line's is.)
          pool: 'forks',
        },
      },
    ],
  },
});
