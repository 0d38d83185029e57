import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { createExpectedStops, type ExpectedStops } from './expectedStops.js';

describe('stops Slipway announces', () => {
  let ctx: TestContext;
  let stops: ExpectedStops;
  // A second replica reads the same key-value store.
  let otherReplica: ExpectedStops;

  beforeAll(async () => {
    ctx = await createTestContext();
    stops = createExpectedStops(ctx.platform.kv);
    otherReplica = createExpectedStops(ctx.platform.kv);
  });
  afterAll(() => ctx?.close());

  it('explains the deaths of the named services while announced, and none after the end', async () => {
    const before = new Date(Date.now() - 10_000);
    const announced = await stops.announce({
      workspaceId: 'w1',
      services: ['files'],
      reason: 'restore',
      boundMs: 60_000,
    });
    const during = new Date();
    expect(await otherReplica.explainsDeath('w1', 'files', during)).toBe('restore');
    expect(await otherReplica.stoppingNow('w1', 'files')).toBe('restore');
    // Another service of it, another workspace, a death before the announcement: failures as ever.
    expect(await otherReplica.explainsDeath('w1', 'db', during)).toBeUndefined();
    expect(await otherReplica.explainsDeath('w2', 'files', during)).toBeUndefined();
    expect(await otherReplica.explainsDeath('w1', 'files', before)).toBeUndefined();
    expect(await otherReplica.stoppingNow('w1')).toBeUndefined();

    await announced.end();
    // A death during the restore handled late is still the restore's; one after its end is a crash.
    expect(await otherReplica.explainsDeath('w1', 'files', during)).toBe('restore');
    expect(await otherReplica.explainsDeath('w1', 'files', new Date(Date.now() + 5_000))).toBeUndefined();
    expect(await otherReplica.stoppingNow('w1', 'files')).toBeUndefined();
  });

  it('covers every service of a workspace when none is named, and never past its bound', async () => {
    await stops.announce({ workspaceId: 'w3', reason: 'deletion', boundMs: 60_000 });
    expect(await otherReplica.explainsDeath('w3', 'web', new Date())).toBe('deletion');
    expect(await otherReplica.stoppingNow('w3')).toBe('deletion');
    expect(await otherReplica.stoppingNow('w3', 'web')).toBe('deletion');

    await stops.announce({ workspaceId: 'w4', reason: 'stop', boundMs: 50 });
    expect(await otherReplica.explainsDeath('w4', 'web', new Date(Date.now() + 60_000))).toBeUndefined();
  });

  it('ends each announcement on its own when two overlap', async () => {
    const first = await stops.announce({ workspaceId: 'w5', reason: 'stop', boundMs: 60_000 });
    const second = await stops.during(
      { workspaceId: 'w5', reason: 'deletion', boundMs: 60_000 },
      async () => {
        await first.end();
        return otherReplica.stoppingNow('w5');
      },
    );
    expect(second).toBe('deletion');
    expect(await otherReplica.stoppingNow('w5')).toBeUndefined();
  });
});
