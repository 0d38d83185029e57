import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../infra/docker/conventions.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import { type BuildLogMessage, createBuildLog, createBuildLogReader } from './buildLog.js';

describe.each(DATABASES)('build log storage (%s)', (database) => {
  let ctx: TestContext;
  let userId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    ({ userId } = await signInNewUser(ctx));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const open = (deploymentId: string) =>
    createBuildLog({
      db: ctx.platform.db,
      pubsub: ctx.platform.pubsub,
      userId,
      workspaceName: 'shop',
      deploymentId,
      redact: (text) => text.replaceAll('hunter22', '********'),
    });

  it('keeps a step header once flushed, before the step runs (a worker killed mid-step still shows it)', async () => {
    const deploymentId = randomUUID();
    const log = open(deploymentId);
    log.write('==> clone: Fetch the repository');
    await log.flush();
    // Read through a reader of its own, as a restarted server would; the log was never ended.
    const stored = await createBuildLogReader(ctx.platform.db).all(deploymentId);
    expect(stored.map((row) => row.line)).toEqual(['==> clone: Fetch the repository']);
  });

  it('keeps a line longer than a stored line whole, as pieces that join to it byte for byte', async () => {
    const deploymentId = randomUUID();
    const log = open(deploymentId);
    // 40,000 characters with an emoji (a surrogate pair) straddling each 16 KiB cut, and a secret in the middle.
    const line = `${'a'.repeat(16_383)}😀${'b'.repeat(3_000)} hunter22 ${'c'.repeat(13_000)}😀${'d'.repeat(7_600)}`;
    log.write(line);
    await log.flush();
    const stored = (await createBuildLogReader(ctx.platform.db).all(deploymentId)).map((row) => row.line);
    expect(stored.length).toBeGreaterThan(2);
    expect(stored.join('')).toBe(line.replace('hunter22', '********'));
    expect(stored.join('')).not.toContain('\uFFFD');
  });

  it('reads lines back in write order, masked, across many flushes, with the ids that went live', async () => {
    const deploymentId = randomUUID();
    const live: BuildLogMessage[] = [];
    const unsubscribe = await ctx.platform.pubsub.subscribe(CHANNELS.buildLogs(deploymentId), (message) => {
      live.push(message as BuildLogMessage);
    });
    const log = open(deploymentId);
    const written: string[] = [];
    for (let flush = 0; flush < 100; flush++) {
      const text = `step ${flush} token hunter22\n\nünïcødé ✓ ${flush}`;
      log.write(text);
      written.push(...text.replaceAll('hunter22', '********').split('\n'));
      await log.flush();
    }
    await log.end();
    await unsubscribe();

    const reader = createBuildLogReader(ctx.platform.db);
    const stored = await reader.all(deploymentId);
    expect(stored.map((row) => row.line)).toEqual(written);
    const ids = stored.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(live.at(-1)).toEqual({ type: 'end' });
    expect(live.filter((message) => message.type === 'line').map((message) => message.id)).toEqual(ids);
    // A bounded read is the tail, in order, however many chunks it spans.
    expect(await reader.recent(deploymentId, 250)).toEqual(stored.slice(-250));
    expect(await reader.recent(deploymentId, 1)).toEqual(stored.slice(-1));
    expect(await reader.recent(deploymentId, 0)).toEqual([]);
  });
});
