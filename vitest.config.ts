import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two test files at a time (Vitest's pool is global: a project's own pool options are not read). Each
    // worker has its own Redis database and each test its own PostgreSQL database (test/testPlatform.ts).
    // The browser tests run one file at a time whatever this says (`--no-file-parallelism` in scripts/test.sh).
    maxWorkers: 2,
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
          name: 'cli',
          root: 'packages/cli',
          include: ['src/**/*.test.ts'],
          // The Docker tests deploy through a real server, as the server project's do.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
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
