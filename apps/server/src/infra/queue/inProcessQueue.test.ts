import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, DATABASES, type TestContext } from '../../test/testPlatform.js';
import { createInProcessQueue } from './inProcessQueue.js';

const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each(DATABASES)('the in-process queue on %s', (database) => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('runs a job another process enqueued after it started, and one whose claim failed', async () => {
    ctx = await createTestContext({ database });
    const claimErrors: unknown[] = [];
    let failNextClaim = true;
    // A database handle whose first claim fails, as one would while the database restarts.
    const flakyDb = new Proxy(ctx.platform.db, {
      get(target, property, receiver) {
        if (property === 'execute' && failNextClaim) {
          failNextClaim = false;
          return async () => {
            throw new Error('connection terminated');
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
    const worker = createInProcessQueue(flakyDb, { pollMs: 50, onClaimError: (e) => claimErrors.push(e) });
    const seen: unknown[] = [];
    await worker.start({ work: async (payload) => void seen.push(payload) });
    // Another process: its own queue on the same database, never started.
    const other = createInProcessQueue(ctx.platform.db);
    await other.enqueue('work', { from: 'another process' });
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([{ from: 'another process' }]);
    expect(claimErrors.map((e) => (e as Error).message)).toEqual(['connection terminated']);
    await worker.close();
    await other.close();
  });
});
